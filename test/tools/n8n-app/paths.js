// @ts-check
'use strict';

/**
 * Where the optional real n8n lives: a cache folder outside the repo, one sub-folder per pinned
 * version, so `npm run n8n` and `npm run test:n8n` share one install and a re-run is instant.
 *
 *   $EVENTPICS_N8N_CACHE (default ~/.cache/n8n-nodes-eventpics)
 *     node-24.21.0/   npm package node-<platform>-<arch>@24.21.0 (n8n 2.x needs Node >= 24)
 *     n8n-2.41.1/     npm install n8n@2.41.1 (own package.json with the linkedom override)
 *     user/           N8N_USER_FOLDER of `npm run n8n` (its .n8n/ holds the database and nodes/)
 */

const os = require('node:os');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const N8N_VERSION = '2.41.1';
const NODE_VERSION = '24.21.0';
/** A transitive dependency of n8n 2.41.1 asks for a linkedom version the registry does not have. */
const OVERRIDES = { linkedom: '0.18.14' };
/** Native modules whose install scripts were skipped; rebuilt with node-gyp against Node 24. */
const NATIVE_MODULES = ['sqlite3', 'isolated-vm'];

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
	N8N_VERSION,
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
