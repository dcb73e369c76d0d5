// @ts-check
'use strict';

/**
 * n8n in queue mode on this machine: Postgres and Redis (services.js), one `n8n start` main that
 * receives the webhooks and queues the executions, and `n8n worker` processes that run them. All
 * share one user folder (the package installed like the Community Nodes panel), one encryption key
 * and one Postgres database; binary data is in `database` mode, n8n's default in queue mode.
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { startPostgres, startRedis } = require('./services');

/**
 * @typedef {object} Worker
 * @property {string} name e.g. "worker-1"
 * @property {number} pid
 * @property {() => string} log everything it printed so far
 * @property {() => string[]} executions ids of the executions it started, from its log
 * @property {() => number} rssMiB resident memory now, from /proc
 * @property {() => Promise<void>} stop
 */

/** @param {number} pid */
function rssMiB(pid) {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
	return kb / 1024;
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} [graceMs]
 */
function stopChild(child, graceMs = 20_000) {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
		const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
		child.once('exit', () => {
			clearTimeout(timer);
			resolve(undefined);
		});
		child.kill('SIGTERM');
	}).then(() => undefined);
}

/**
 * @param {{ work: string, extraEnv?: Record<string, string> }} options
 */
async function startBackends(options) {
	const postgres = await startPostgres(options.work);
	let redis;
	try {
		redis = await startRedis(options.work);
	} catch (error) {
		await postgres.stop();
		throw error;
	}
	const userFolder = path.join(options.work, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	const env = n8n.n8nEnv(userFolder, {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...options.extraEnv,
	});
	const stop = async () => {
		await redis.stop();
		await postgres.stop();
	};
	return { postgres, redis, env, userFolder, stop };
}

/**
 * Starts `n8n worker` and waits until it says it is ready.
 * @param {{ env: NodeJS.ProcessEnv, name: string, concurrency: number, logDir: string }} options
 * @returns {Promise<Worker>}
 */
async function startWorker(options) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {
		...options.env,
		QUEUE_HEALTH_CHECK_PORT: String(await n8n.freePort()),
		N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
	};
	const child = spawn(
		paths.nodeBin,
		[paths.n8nBin, 'worker', `--concurrency=${options.concurrency}`],
		{
			env,
			cwd: env.N8N_USER_FOLDER,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	const logFile = path.join(options.logDir, `${options.name}.log`);
	let output = '';
	const take = (/** @type {Buffer} */ chunk) => {
		output += chunk;
		fs.appendFileSync(logFile, chunk);
	};
	child.stdout?.on('data', take);
	child.stderr?.on('data', take);
	const pid = /** @type {number} */ (child.pid);
	/** @type {Worker} */
	const worker = {
		name: options.name,
		pid,
		log: () => output,
		executions: () =>
			[...output.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]),
		rssMiB: () => rssMiB(pid),
		stop: () => stopChild(child),
	};
	const deadline = Date.now() + 120_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${options.name} exited:\n${output.slice(-3000)}`);
		if (/n8n worker is now ready/i.test(output)) return worker;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	await worker.stop();
	throw new Error(`${options.name} did not get ready:\n${output.slice(-3000)}`);
}

/**
 * Samples a process's resident memory every `everyMs` until `stop()`; returns the samples' range.
 * @param {() => number} read
 * @param {number} [everyMs]
 */
function sampleMemory(read, everyMs = 100) {
	const first = read();
	let peak = first;
	const timer = setInterval(() => {
		try {
			peak = Math.max(peak, read());
		} catch {
			// the process is gone; the caller sees it
		}
	}, everyMs);
	return {
		stop: () => {
			clearInterval(timer);
			return { beforeMiB: first, peakMiB: peak, afterMiB: read() };
		},
	};
}

module.exports = { startBackends, startWorker, stopChild, sampleMemory, rssMiB };
