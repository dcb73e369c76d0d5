#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:queue`: this package on n8n in queue mode (see README.md in this folder).
 * Postgres + Redis (Debian packages), the emulator, `n8n start` as main and `n8n worker`s, binary
 * data in `database` mode; the scenarios are in scenarios.js. Exit code 0 when everything holds.
 *
 * Flags: --files N (default 500) --per-execution N (50) --worker-concurrency N (5)
 *        --rounds N (1: how often the 1-worker and 2-worker timings are taken)
 *        --large-mib N (default: the largest file n8n reads back from Postgres, ~256 MiB)
 *        --skip-large (leave out the two large-file runs) --only-large (only those)
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { startBackends, startWorker } = require('./cluster');
const { BATCH, LARGE } = require('./workflows');
const { FORM } = require('./guests');
const scenarios = require('./scenarios');

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = {
		files: 500,
		perExecution: 50,
		workerConcurrency: 5,
		rounds: 1,
		/** @type {number | undefined} */
		largeMiB: undefined,
		skipLarge: false,
		onlyLarge: false,
	};
	/** @type {Record<string, keyof typeof options>} */
	const numeric = {
		'--files': 'files',
		'--per-execution': 'perExecution',
		'--worker-concurrency': 'workerConcurrency',
		'--rounds': 'rounds',
		'--large-mib': 'largeMiB',
	};
	for (let i = 0; i < argv.length; i++) {
		const key = numeric[argv[i]];
		if (key) {
			const value = Number(argv[++i]);
			if (!Number.isInteger(value) || value <= 0)
				throw new Error(`${argv[i - 1]} needs a positive whole number`);
			/** @type {any} */ (options)[key] = value;
		} else if (argv[i] === '--skip-large') options.skipLarge = true;
		else if (argv[i] === '--only-large') options.onlyLarge = true;
		else throw new Error(`Unknown argument ${argv[i]}`);
	}
	return options;
}

/** @param {string} message */
function step(message) {
	process.stdout.write(`[test:queue] ${message}\n`);
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	await ensureN8n();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-test-queue-'));
	const logDir = path.join(work, 'logs');
	fs.mkdirSync(logDir);
	const logFile = path.join(logDir, 'main.log');
	const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
	/** @type {Array<{ stop: () => Promise<void> }>} */
	const running = [];
	let passed = false;
	try {
		const backends = await startBackends({
			work,
			extraEnv: {
				N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: '1024',
				N8N_FORMDATA_FILE_SIZE_MAX: '2048',
				N8N_CONCURRENCY_PRODUCTION_LIMIT: '-1',
			},
		});
		running.push(backends);
		step(
			`postgres on 127.0.0.1:${backends.postgres.port}, redis on 127.0.0.1:${backends.redis.port}`,
		);
		const { env } = backends;
		await installIntoUserFolder(backends.userFolder, logFile);
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		for (const workflow of [BATCH, LARGE, FORM]) {
			const file = path.join(work, `${workflow.id}.json`);
			fs.writeFileSync(file, JSON.stringify(workflow));
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
			await n8n.mustRun(['publish:workflow', `--id=${workflow.id}`], env);
		}
		step('package installed, credential and workflows imported and published (Postgres)');

		const server = await n8n.startServer({
			env,
			port: await n8n.freePort(),
			brokerPort: await n8n.freePort(),
			logFile,
		});
		running.push(server);
		step(`main (queue mode) answers on ${server.url}`);
		const newWorker = async (/** @type {string} */ name) => {
			const worker = await startWorker({
				env,
				name,
				concurrency: options.workerConcurrency,
				logDir,
			});
			running.push(worker);
			return worker;
		};
		const context = { emulator, server, options, step, newWorker };
		await scenarios.runAll(context);
		passed = true;
		step(
			`passed in ${((Date.now() - started) / 1000).toFixed(0)} s (n8n ${paths.N8N_VERSION}, Node ${paths.NODE_VERSION}, ${os.cpus().length} cores)`,
		);
	} finally {
		for (const service of running.reverse()) await service.stop().catch(() => undefined);
		await emulator.close();
		if (!passed) step(`kept ${work} for a look (logs/)`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

module.exports = { parseArgs };

if (require.main === module) {
	main().catch((error) => {
		console.error(`[test:queue] FAILED: ${error && error.stack}`);
		process.exitCode = 1;
	});
}
