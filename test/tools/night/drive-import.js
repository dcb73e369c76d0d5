// @ts-check
'use strict';

/**
 * The cloud-drive-shaped import in the real n8n app: a drive folder of `files` small photos
 * (drive.js) and the drive workflow (workflows.js), run with `n8n execute` as the folder fills up
 * (25 %, 50 %, 100 % in the full night: each run uploads what is new; after each, a run with
 * nothing new; the short night lists the whole folder at once), then
 * `repeat` runs with nothing new at 100 % and `repeat` runs over an empty folder. Per run: the
 * execution's time (n8n's own startedAt/stoppedAt, n8n's start-up left out), the peak resident
 * memory of the `n8n execute` process and its children, the bodies the drive sent, what arrived.
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startEmulator } = require('../emulator');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { EMULATOR_TARGET } = require('../examples/examples');
const { startDrive } = require('./drive');
const { driveWorkflow } = require('./workflows');
const { processTree } = require('./sampler');
const { StepError } = require('./night');
const { track } = require('./n8n-process');

/**
 * @typedef {object} DriveRun
 * @property {string} label e.g. "50 %, 500 new"
 * @property {'new' | 'nothing new' | 'empty'} kind
 * @property {number} listed files in the listing
 * @property {number} ms the execution's time
 * @property {Record<string, number>} nodeMs each node's time (n8n's executionTime), by node name
 * @property {number} rss peak resident memory of n8n execute (and its children)
 * @property {number} downloads file bodies the drive sent
 * @property {number} bytes their bytes
 * @property {number} stored files stored in the album by this run
 */

/**
 * @typedef {object} DriveResult
 * @property {string} workflow its name
 * @property {number} files
 * @property {DriveRun[]} runs
 * @property {{ stored: number, distinct: number, twice: number }} album after every run
 */

/**
 * `n8n execute --id=<id> --rawOutput`, its execution and the peak memory of its processes.
 * N8N_EXPRESSION_ENGINE=legacy as in n8n.js executeWorkflow (n8n 2.41.1's execute can crash in the
 * vm engine's isolate pool while exiting).
 * @param {string} id
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ execution: any, rss: number }>}
 */
async function execute(id, env) {
	const withPorts = await n8n.withOwnPorts({ ...env, N8N_EXPRESSION_ENGINE: 'legacy' });
	return await new Promise((resolve, reject) => {
		const child = spawn(paths.nodeBin, [paths.n8nBin, 'execute', `--id=${id}`, '--rawOutput'], {
			env: withPorts,
			cwd: env.N8N_USER_FOLDER,
			stdio: ['ignore', 'pipe', 'pipe'],
			// its own group, so that the runner's Ctrl-C handler ends it with its task runner
			detached: true,
		});
		track(child);
		/** @type {Buffer[]} */
		const out = [];
		let stderr = '';
		let rss = 0;
		const sample = setInterval(() => {
			let now = 0;
			for (const pid of processTree(/** @type {number} */ (child.pid))) {
				try {
					const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
					now += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
				} catch {
					// ended
				}
			}
			rss = Math.max(rss, now);
		}, 200);
		child.stdout.on('data', (chunk) => out.push(chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', (error) => {
			clearInterval(sample);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearInterval(sample);
			try {
				// a task runner that outlived its n8n execute
				process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
			} catch {
				// none did
			}
			const stdout = Buffer.concat(out).toString('utf8');
			// the execution JSON, whatever n8n logged after it
			const start = stdout.search(/^\{/m);
			const end = stdout.lastIndexOf('\n}') + 2;
			try {
				resolve({ execution: JSON.parse(stdout.slice(start, end)), rss });
			} catch {
				reject(
					new Error(
						`n8n execute ended with ${signal ?? code} and printed no execution:\n${stdout.slice(-1500)}\n${stderr.slice(-1500)}`,
					),
				);
			}
		});
	});
}

/**
 * `stages`: the shares of the folder listed as it fills (each run uploads what is new, then a run
 * with nothing new follows, except after the last stage: `repeat` runs follow it).
 * @param {{ files: number, repeat: number, stages: number[], work: string, nodesTemplate: string,
 *   product: import('./workflows').ProductFeatures, log: (line: string) => void }} options
 * @returns {Promise<DriveResult>}
 */
async function runDriveImport({ files, repeat, stages, work, nodesTemplate, product, log }) {
	/** @type {Array<() => Promise<void>>} */
	const cleanups = [];
	let currentStep = 'set-up';
	/**
	 * @template T
	 * @param {string} name
	 * @param {() => Promise<T>} work
	 * @returns {Promise<T>}
	 */
	const step = async (name, work) => {
		currentStep = name;
		const started = Date.now();
		const value = await work();
		log(`  ok  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		return value;
	};
	try {
		const userFolder = path.join(work, 'user');
		fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
		const drive = await startDrive({ files });
		cleanups.push(() => drive.close());
		const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
		cleanups.push(() => emulator.close());
		const env = n8n.n8nEnv(userFolder, { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' });
		const workflow = driveWorkflow({ product, driveUrl: drive.url });
		await step(`workflow "${workflow.name}" imported`, async () => {
			fs.cpSync(nodesTemplate, path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
			const credential = path.join(work, 'credential.json');
			n8n.writeCredentialFile(credential, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
			await n8n.mustRun(['import:credentials', `--input=${credential}`], env);
			await n8n.importWorkflow(workflow, path.join(work, 'workflow.json'), env);
		});

		/** @type {DriveRun[]} */
		const runs = [];
		/** @param {string} label @param {DriveRun['kind']} kind @param {number} listed */
		const run = async (label, kind, listed) =>
			await step(`run: ${label}`, async () => {
				drive.show(listed);
				const before = { ...drive.counts(), stored: emulator.uploads.length };
				const { execution, rss } = await execute(workflow.id, env);
				const error = execution.data?.resultData?.error;
				if (error)
					throw new Error(`the execution failed: ${error.message ?? JSON.stringify(error)}`);
				const after = drive.counts();
				/** @type {DriveRun} */
				const result = {
					label,
					kind,
					listed,
					ms: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
					nodeMs: Object.fromEntries(
						Object.entries(execution.data.resultData.runData ?? {}).map(([name, runs]) => [
							name,
							/** @type {any[]} */ (runs).reduce((sum, r) => sum + (r.executionTime ?? 0), 0),
						]),
					),
					rss,
					downloads: after.downloads - before.downloads,
					bytes: after.bytesSent - before.bytesSent,
					stored: emulator.uploads.length - before.stored,
				};
				runs.push(result);
				return result;
			});

		let listed = 0;
		for (const share of stages) {
			const next = Math.round((files * share) / 100);
			await run(`${share} %, ${next - listed} new`, 'new', next);
			listed = next;
			if (share < 100) await run(`${share} %, nothing new`, 'nothing new', listed);
		}
		for (let i = 1; i <= repeat; i++) await run(`100 %, nothing new (${i})`, 'nothing new', files);
		for (let i = 1; i <= repeat; i++) await run(`empty folder (${i})`, 'empty', 0);

		const inAlbum = emulator.uploads.filter(
			(u) => u.linkId === EMULATOR_TARGET.linkId && u.albumId === EMULATOR_TARGET.albumId,
		);
		const names = inAlbum.map((u) => u.fileName);
		const distinct = new Set(names).size;
		const sha256 = new Map(drive.files.map((f) => [f.name, f.sha256]));
		const wrong = inAlbum.filter((u) => sha256.get(u.fileName) !== u.sha256);
		if (wrong.length > 0)
			throw new StepError(
				'the album holds what the drive holds',
				`${wrong.length} stored files are not a drive file byte for byte (e.g. ${wrong[0].fileName})`,
			);
		const arrived = new Set(names);
		const missing = drive.files.filter((f) => !arrived.has(f.name));
		if (missing.length > 0)
			throw new StepError(
				'the album holds what the drive holds',
				`${missing.length} drive files never arrived (e.g. ${missing[0].name})`,
			);
		return {
			workflow: workflow.name,
			files,
			runs,
			album: { stored: inAlbum.length, distinct, twice: inAlbum.length - distinct },
		};
	} catch (error) {
		throw error instanceof StepError ? error : new StepError(currentStep, error);
	} finally {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
	}
}

module.exports = { runDriveImport };
