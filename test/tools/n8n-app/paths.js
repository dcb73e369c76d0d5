// @ts-check
'use strict';

/**
 * Where the real n8n lives: a cache folder outside the repo, one sub-folder per n8n version, so
 * `npm run n8n`, `npm run test:n8n` and the other tiers share one install and a re-run is instant.
 *
 *   $EVENTPICS_N8N_CACHE (default ~/.cache/n8n-nodes-eventpics)
 *     node-24.21.0/   npm package node-<platform>-<arch>@24.21.0 (n8n 2.x needs Node >= 24)
 *     n8n-2.41.1/     npm install n8n@2.41.1 (own package.json with the overrides below)
 *     user/           N8N_USER_FOLDER of `npm run n8n` (its .n8n/ holds the database and nodes/)
 *
 * The pinned version is N8N_PINNED (what CI runs). EVENTPICS_N8N_VERSION picks another one
 * (`npm run test:n8n -- --n8n 1.123.81` sets it): it gets its own n8n-<version>/ folder and the Node
 * its major needs (1.x: Node 22, 2.x: Node 24), each a folder of its own.
 */

const os = require('node:os');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** The n8n version the package is tested on in CI (`.ci/run`). */
const N8N_PINNED = '2.41.1';
const N8N_VERSION = process.env.EVENTPICS_N8N_VERSION || N8N_PINNED;
if (!/^\d+\.\d+\.\d+$/.test(N8N_VERSION))
	throw new Error(
		`EVENTPICS_N8N_VERSION must be an exact version such as 2.41.1, not "${N8N_VERSION}"`,
	);
const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
/** n8n 2.x requires Node >= 24; the 1.x line runs on Node 22 (its engines: >= 20.19, <= 24.x). */
const NODE_VERSION = N8N_MAJOR >= 2 ? '24.21.0' : '22.23.3';
/**
 * npm overrides, for packages missing from the registry reachable here (ignored when a version does
 * not use the package): a transitive dependency of n8n 2.41.1 asks for a linkedom version the
 * registry lacks; n8n 1.123 and 2.0 load xlsx from cdn.sheetjs.com, replaced by the registry's 0.18.5.
 */
const OVERRIDES = { linkedom: '0.18.14', xlsx: '0.18.5' };
/**
 * Native modules whose install scripts were skipped; rebuilt with node-gyp against the Node above.
 * sqlite3 is in every version; isolated-vm (the 2.x expression engine) only where n8n has it.
 */
const NATIVE_MODULES = ['sqlite3', 'isolated-vm'];
const REQUIRED_NATIVE_MODULES = ['sqlite3'];

const cacheRoot = process.env.EVENTPICS_N8N_CACHE
	? path.resolve(process.env.EVENTPICS_N8N_CACHE)
	: path.join(os.homedir(), '.cache', 'n8n-nodes-eventpics');

/** npm package that ships a Node binary for this machine (same naming as the `node` npm package). */
const nodePackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const nodeDir = path.join(cacheRoot, `node-${NODE_VERSION}`);
const nodeHome = path.join(nodeDir, 'node_modules', nodePackage);
const nodeBin = path.join(nodeHome, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');

const n8nDir = path.join(cacheRoot, `n8n-${N8N_VERSION}`);
const n8nBin = path.join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
const installedMarker = path.join(n8nDir, '.eventpics-install-complete');

/** The user folder of `npm run n8n` (kept between runs: workflows you make stay). */
const userFolder = path.join(cacheRoot, 'user');

module.exports = {
	REPO_ROOT,
	N8N_PINNED,
	N8N_VERSION,
	N8N_MAJOR,
	REQUIRED_NATIVE_MODULES,
	NODE_VERSION,
	OVERRIDES,
	NATIVE_MODULES,
	cacheRoot,
	nodePackage,
	nodeDir,
	nodeHome,
	nodeBin,
	n8nDir,
	n8nBin,
	installedMarker,
	userFolder,
};
