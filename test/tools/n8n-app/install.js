#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Installs n8n (the pinned version, or EVENTPICS_N8N_VERSION) and the Node it needs into the cache
 * folder (see paths.js).
 * Idempotent: a finished install leaves a marker and the next call returns at once.
 *
 *   1. Node: npm package node-<platform>-<arch>@<version> plus node-gyp, in <cache>/node-<version>
 *      (24.21.0 for n8n 2.x, 22.23.3 for 1.x)
 *   2. n8n: npm install n8n@<version> --ignore-scripts in <cache>/n8n-<version>, whose own
 *      package.json has the overrides of paths.js (packages the registry here lacks). Install
 *      scripts are skipped because several download binaries from the internet.
 *   3. sqlite3 and (where n8n has it) isolated-vm rebuilt from source with node-gyp against that
 *      Node's headers (--nodedir points at the Node package, overriding any npm "nodedir" setting).
 *
 * `node test/tools/n8n-app/install.js` on its own prints where everything went and how long it took.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const paths = require('./paths');

const NODE_GYP_VERSION = '12.4.0';

/** @param {string} message */
function log(message) {
	process.stdout.write(`[n8n-app] ${message}\n`);
}

/**
 * Runs a command; its output goes to `logFile` (shown in part when it fails).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, logFile: string }} options
 * @returns {Promise<void>}
 */
function run(command, args, options) {
	return new Promise((resolve, reject) => {
		fs.appendFileSync(options.logFile, `\n$ (cd ${options.cwd} && ${command} ${args.join(' ')})\n`);
		const out = fs.openSync(options.logFile, 'a');
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', out, out],
		});
		child.on('error', (error) => {
			fs.closeSync(out);
			reject(error);
		});
		child.on('close', (code, signal) => {
			fs.closeSync(out);
			if (code === 0) return resolve();
			const tail = fs.readFileSync(options.logFile, 'utf8').split('\n').slice(-40).join('\n');
			reject(
				new Error(
					`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}) in ${options.cwd}\n${tail}\nFull log: ${options.logFile}`,
				),
			);
		});
	});
}

/** npm as the current Node runs it (npm_execpath when started by `npm run`). */
function npmCommand() {
	const cli = process.env.npm_execpath;
	if (cli && /npm-cli\.js$/.test(cli)) return { command: process.execPath, prefix: [cli] };
	return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [] };
}

/**
 * `npm install` in `dir`, without scripts, audit or fund; `env` cleared of npm_config_* set by an
 * outer `npm run` so the repo's own settings do not leak into the cache folder.
 * @param {string} dir
 * @param {string} logFile
 */
async function npmInstall(dir, logFile) {
	const npm = npmCommand();
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	await run(
		npm.command,
		[
			...npm.prefix,
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=warn',
			'--engine-strict=false',
		],
		{ cwd: dir, env, logFile },
	);
}

/**
 * @param {string} dir
 * @param {object} packageJson
 */
function writePackageJson(dir, packageJson) {
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson, null, 2) + '\n');
}

/**
 * Node 24 and node-gyp into <cache>/node-<version>. Returns node-gyp.js.
 * @param {string} logFile
 * @returns {Promise<string>}
 */
async function installNode(logFile) {
	const gyp = path.join(paths.nodeDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
	if (fs.existsSync(paths.nodeBin) && fs.existsSync(gyp)) return gyp;
	log(
		`installing Node ${paths.NODE_VERSION} (npm package ${paths.nodePackage}) into ${paths.nodeDir}`,
	);
	writePackageJson(paths.nodeDir, {
		name: 'eventpics-n8n-node-runtime',
		private: true,
		description: `Node ${paths.NODE_VERSION} for the optional real n8n of n8n-nodes-eventpics`,
		dependencies: { [paths.nodePackage]: paths.NODE_VERSION, 'node-gyp': NODE_GYP_VERSION },
	});
	await npmInstall(paths.nodeDir, logFile);
	fs.chmodSync(paths.nodeBin, 0o755);
	return gyp;
}

/**
 * Package folders named `name` anywhere in the node_modules tree under `root` (nested copies too).
 * @param {string} root
 * @param {string} name
 * @returns {string[]}
 */
function findPackages(root, name) {
	/** @type {string[]} */
	const found = [];
	/** @param {string} modules */
	const walk = (modules) => {
		let entries;
		try {
			entries = fs.readdirSync(modules, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (!entry.isDirectory()) continue;
			const dir = path.join(modules, entry.name);
			if (entry.name.startsWith('@')) {
				for (const scoped of fs.readdirSync(dir, { withFileTypes: true })) {
					if (scoped.isDirectory()) walk(path.join(dir, scoped.name, 'node_modules'));
				}
				continue;
			}
			if (entry.name === name && fs.existsSync(path.join(dir, 'binding.gyp'))) found.push(dir);
			walk(path.join(dir, 'node_modules'));
		}
	};
	walk(path.join(root, 'node_modules'));
	return found;
}

/**
 * @param {string} gyp node-gyp.js
 * @param {string} logFile
 */
async function rebuildNatives(gyp, logFile) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	env.npm_config_nodedir = paths.nodeHome;
	env.PATH = `${path.dirname(paths.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`;
	/** @type {string[]} */
	const built = [];
	for (const name of paths.NATIVE_MODULES) {
		const dirs = findPackages(paths.n8nDir, name);
		if (dirs.length === 0 && paths.REQUIRED_NATIVE_MODULES.includes(name))
			throw new Error(
				`${name} is not in ${paths.n8nDir}/node_modules: the n8n install is incomplete`,
			);
		if (dirs.length === 0) log(`n8n ${paths.N8N_VERSION} does not use ${name}`);
		else built.push(name);
		for (const dir of dirs) {
			const started = Date.now();
			// isolated-vm ships prebuilt binaries (node-gyp-build), one of them for Node 24's ABI: use it
			// when it loads (saves a 4-minute compile); sqlite3 has none here (prebuild-install would
			// download one), so it is built
			try {
				await run(paths.nodeBin, ['-e', `require(${JSON.stringify(dir)})`], {
					cwd: dir,
					env,
					logFile,
				});
				log(
					`${path.relative(paths.n8nDir, dir)}: its prebuilt binary loads on Node ${paths.NODE_VERSION}`,
				);
				continue;
			} catch {
				// no binary for this Node: build it
			}
			log(
				`building ${path.relative(paths.n8nDir, dir)} with node-gyp for Node ${paths.NODE_VERSION}`,
			);
			await run(
				paths.nodeBin,
				[
					gyp,
					'rebuild',
					'--release',
					`--jobs=${Math.max(1, os.cpus().length)}`,
					`--nodedir=${paths.nodeHome}`,
				],
				{ cwd: dir, env, logFile },
			);
			log(`  built in ${seconds(started)}`);
		}
	}
	const probe = built.map((name) => `require(${JSON.stringify(name)});`).join('');
	await run(paths.nodeBin, ['-e', probe], {
		cwd: path.join(paths.n8nDir, 'node_modules', 'n8n'),
		env,
		logFile,
	});
}

/** @param {number} started */
function seconds(started) {
	return `${((Date.now() - started) / 1000).toFixed(0)} s`;
}

/**
 * Makes sure the pinned n8n is installed and runnable. Returns quickly when it already is.
 * @returns {Promise<{ nodeBin: string, n8nBin: string, fresh: boolean }>}
 */
async function ensureN8n() {
	const wanted = `n8n@${paths.N8N_VERSION} node@${paths.NODE_VERSION}`;
	if (
		fs.existsSync(paths.installedMarker) &&
		fs.readFileSync(paths.installedMarker, 'utf8').trim() === wanted
	) {
		return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, fresh: false };
	}
	fs.mkdirSync(paths.cacheRoot, { recursive: true });
	const logFile = path.join(paths.cacheRoot, `install-n8n-${paths.N8N_VERSION}.log`);
	fs.writeFileSync(logFile, `install started ${new Date().toISOString()}\n`);
	const started = Date.now();
	log(`installing n8n ${paths.N8N_VERSION} into ${paths.n8nDir} (about 3 GB; log: ${logFile})`);
	const gyp = await installNode(logFile);
	writePackageJson(paths.n8nDir, {
		name: 'eventpics-n8n-app',
		private: true,
		description: `n8n ${paths.N8N_VERSION} for trying n8n-nodes-eventpics (made by test/tools/n8n-app/install.js)`,
		dependencies: { n8n: paths.N8N_VERSION },
		overrides: paths.OVERRIDES,
	});
	const npmStarted = Date.now();
	await npmInstall(paths.n8nDir, logFile);
	log(`npm install n8n took ${seconds(npmStarted)}`);
	await rebuildNatives(gyp, logFile);
	fs.writeFileSync(paths.installedMarker, `${wanted}\n`);
	log(`n8n ${paths.N8N_VERSION} ready in ${seconds(started)}`);
	return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, fresh: true };
}

module.exports = { ensureN8n, log, run };

if (require.main === module) {
	ensureN8n().then(
		(result) => {
			log(`${result.fresh ? 'installed' : 'already installed'}: ${result.n8nBin}`);
			log(`run n8n with: ${result.nodeBin} ${result.n8nBin} --help`);
		},
		(error) => {
			console.error(`[n8n-app] ${error.message}`);
			process.exit(1);
		},
	);
}
