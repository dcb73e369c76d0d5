// @ts-check
'use strict';

/**
 * Postgres and Redis for the queue-mode tier, from the Debian packages
 * (`apt-get install -y postgresql redis-server`), started as this tier's own processes: a fresh
 * data folder in a temp directory, 127.0.0.1 only, free ports, nothing persisted. The system
 * services of the packages are not used (and need not run).
 *
 * Postgres refuses to run as root: when the tier runs as root, initdb and postgres run as the
 * `postgres` user of the package (runuser), which then owns the data folder.
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { freePort } = require('../n8n-app/n8n');

const APT_HINT = 'apt-get update && apt-get install -y postgresql redis-server';

/**
 * A program from PATH or, for Postgres, from /usr/lib/postgresql/<version>/bin.
 * @param {string} name
 * @returns {string}
 */
function findProgram(name) {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		const file = path.join(dir, name);
		if (dir && fs.existsSync(file)) return file;
	}
	const pgRoot = '/usr/lib/postgresql';
	if (fs.existsSync(pgRoot)) {
		const versions = fs
			.readdirSync(pgRoot)
			.filter((v) => /^\d+$/.test(v))
			.sort((a, b) => Number(b) - Number(a));
		for (const version of versions) {
			const file = path.join(pgRoot, version, 'bin', name);
			if (fs.existsSync(file)) return file;
		}
	}
	throw new Error(`${name} not found. Install the Debian packages: ${APT_HINT}`);
}

/**
 * @typedef {object} Service
 * @property {number} port
 * @property {number} pid
 * @property {() => string} log
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns a long-running service and waits until `ready(output)` is true.
 * @param {string} label
 * @param {string[]} argv
 * @param {{ ready: (output: string) => boolean, timeoutMs?: number }} options
 * @returns {Promise<Service>}
 */
async function startProcess(label, argv, options) {
	const [command, ...args] = argv;
	const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout?.on('data', (chunk) => (output += chunk));
	child.stderr?.on('data', (chunk) => (output += chunk));
	let exited = false;
	child.on('exit', () => (exited = true));
	const stop = () =>
		new Promise((resolve) => {
			if (exited) return resolve(undefined);
			const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
			child.once('exit', () => {
				clearTimeout(timer);
				resolve(undefined);
			});
			child.kill('SIGTERM');
		}).then(() => undefined);
	const deadline = Date.now() + (options.timeoutMs ?? 30_000);
	while (Date.now() < deadline) {
		if (exited) throw new Error(`${label} exited early:\n${output.slice(-2000)}`);
		if (options.ready(output)) {
			return { port: 0, pid: /** @type {number} */ (child.pid), log: () => output, stop };
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	await stop();
	throw new Error(`${label} did not get ready:\n${output.slice(-2000)}`);
}

/**
 * Runs a command as the `postgres` user when this process is root (Postgres refuses root).
 * @param {string[]} argv
 */
function asPostgresUser(argv) {
	if (process.getuid?.() !== 0) return argv;
	return ['runuser', '-u', 'postgres', '--', ...argv];
}

/**
 * A throw-away Postgres cluster; database `n8n`, user `n8n`, trust auth, 127.0.0.1 only.
 * Durability is off (fsync, synchronous_commit): the data is thrown away anyway.
 * @param {string} workDir an empty folder (the data and socket folders go inside)
 * @returns {Promise<Service & { database: string, user: string }>}
 */
async function startPostgres(workDir) {
	const dataDir = path.join(workDir, 'pgdata');
	const socketDir = path.join(workDir, 'pgsocket');
	fs.mkdirSync(socketDir, { recursive: true });
	if (process.getuid?.() === 0) {
		fs.chmodSync(workDir, 0o755);
		spawnSync('chown', ['postgres', socketDir]);
		fs.mkdirSync(dataDir);
		spawnSync('chown', ['postgres', dataDir]);
	}
	const [cmd, ...args] = asPostgresUser([
		findProgram('initdb'),
		...['-D', dataDir, '-U', 'n8n', '--auth=trust', '--encoding=UTF8', '--no-sync'],
	]);
	const init = spawnSync(cmd, args, { encoding: 'utf8' });
	if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
	const port = await freePort();
	const settings = [
		'listen_addresses=127.0.0.1',
		'fsync=off',
		'synchronous_commit=off',
		'full_page_writes=off',
		'max_connections=100',
	];
	const service = await startProcess(
		'postgres',
		asPostgresUser([
			findProgram('postgres'),
			...['-D', dataDir, '-p', String(port), '-k', socketDir],
			...settings.flatMap((setting) => ['-c', setting]),
		]),
		{ ready: (output) => /ready to accept connections/.test(output) },
	);
	const created = spawnSync(
		findProgram('createdb'),
		['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'],
		{ encoding: 'utf8' },
	);
	if (created.status !== 0) {
		await service.stop();
		throw new Error(`createdb failed:\n${created.stderr}`);
	}
	return { ...service, port, database: 'n8n', user: 'n8n' };
}

/**
 * A throw-away Redis: no persistence, 127.0.0.1 only.
 * @param {string} workDir
 * @returns {Promise<Service>}
 */
async function startRedis(workDir) {
	const port = await freePort();
	const dir = path.join(workDir, 'redis');
	fs.mkdirSync(dir, { recursive: true });
	const service = await startProcess(
		'redis-server',
		[
			findProgram('redis-server'),
			...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
			...['--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
		],
		{ ready: (output) => /Ready to accept connections/i.test(output) },
	);
	return { ...service, port };
}

module.exports = { APT_HINT, findProgram, startPostgres, startRedis };
