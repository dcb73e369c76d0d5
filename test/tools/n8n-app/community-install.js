// @ts-check
'use strict';

/**
 * Installs this package into an n8n user folder the way the Community Nodes panel does
 * (n8n 2.x CommunityPackagesService.downloadPackage), from the `npm pack` tarball instead of the
 * registry:
 *
 *   <user>/.n8n/nodes/package.json                      { name: 'installed-nodes', private, dependencies }
 *   <user>/.n8n/nodes/node_modules/n8n-nodes-eventpics  the tarball, unpacked (tar --strip-components=1)
 *   its package.json without devDependencies, peerDependencies, optionalDependencies, then
 *   `npm install --bin-links=false --install-strategy=shallow --ignore-scripts=true --package-lock=false`
 *   in that folder, and the version recorded in nodes/package.json.
 *
 * n8n loads every package under nodes/node_modules at start; the panel would also list it in its
 * database, which does not change how the node runs.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { run } = require('./install');
const { REPO_ROOT } = require('./paths');

/** @returns {{ command: string, prefix: string[] }} npm as the current Node runs it */
function npm() {
	const cli = process.env.npm_execpath;
	if (cli && /npm-cli\.js$/.test(cli)) return { command: process.execPath, prefix: [cli] };
	return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [] };
}

/** An environment without the npm_* settings of an outer `npm run`. */
function cleanEnv() {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

/**
 * `npm pack` of the repo (after `npm run build` made dist/) into a temp folder.
 * @param {string} logFile
 * @returns {Promise<string>} the tarball's path
 */
async function packRepo(logFile) {
	const { ensureBuilt } = require('../demo/build');
	ensureBuilt({ log: () => undefined });
	const out = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-pack-'));
	const n = npm();
	await run(n.command, [...n.prefix, 'pack', '--pack-destination', out, '--loglevel=warn'], {
		cwd: REPO_ROOT,
		env: cleanEnv(),
		logFile,
	});
	const tarball = fs.readdirSync(out).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error(`npm pack wrote no tarball into ${out}`);
	return path.join(out, tarball);
}

/**
 * @param {string} userFolder N8N_USER_FOLDER (n8n uses <userFolder>/.n8n)
 * @param {string} logFile
 * @returns {Promise<{ packageDir: string, version: string, tarball: string }>}
 */
async function installIntoUserFolder(userFolder, logFile) {
	const tarball = await packRepo(logFile);
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const nodesJson = path.join(nodesDir, 'package.json');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(nodesJson)) {
		fs.writeFileSync(
			nodesJson,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	}
	const { name } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	const packageDir = path.join(nodesDir, 'node_modules', name);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		cwd: nodesDir,
		logFile,
	});

	const packageJsonPath = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...kept } = JSON.parse(
		fs.readFileSync(packageJsonPath, 'utf8'),
	);
	(void devDependencies, peerDependencies, optionalDependencies);
	fs.writeFileSync(packageJsonPath, JSON.stringify(kept, null, 2));
	const n = npm();
	await run(
		n.command,
		[
			...n.prefix,
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=warn',
		],
		{ cwd: packageDir, env: { ...cleanEnv(), NODE_ENV: 'production' }, logFile },
	);
	const nodes = JSON.parse(fs.readFileSync(nodesJson, 'utf8'));
	nodes.dependencies = { ...nodes.dependencies, [name]: kept.version };
	fs.writeFileSync(nodesJson, JSON.stringify(nodes, null, 2));
	fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	return { packageDir, version: kept.version, tarball: path.basename(tarball) };
}

module.exports = { installIntoUserFolder, packRepo };
