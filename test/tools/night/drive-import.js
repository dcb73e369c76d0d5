// @ts-check
'use strict';

/**
 * The cloud-drive-shaped import in the real n8n app: a drive folder of `files` small photos
 * (drive.js) and the drive workflow (workflows.js), published in a running `n8n start` and run the
 * way a schedule runs it, in that process (its webhook trigger starts a run when the tier asks, and
 * answers once the run ends), as the folder fills up (25 %, 50 %, 100 % in the full night: each run
 * uploads what is new; after each, a run with nothing new; the short night lists the whole folder
 * at once), then `repeat` runs with nothing new at 100 %, each followed by one over an empty folder.
 * Per run: the execution's time and each node's (n8n's event log), the peak resident memory of n8n
 * and its children while it ran, the bodies the drive sent, what arrived.
 */

const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const n8n = require('../n8n-app/n8n');
const { EMULATOR_TARGET } = require('../examples/examples');
const { startDrive } = require('./drive');
const { driveWorkflow, DRIVE_WEBHOOK } = require('./workflows');
const { treeRss } = require('./sampler');
const { StepError } = require('./night');
const { startN8n } = require('./n8n-process');
const { session, createCredential, publish } = require('./rest');
const { loggedExecutions } = require('./executions');

/**
 * @typedef {object} DriveRun
 * @property {string} label e.g. "50 %, 500 new"
 * @property {'new' | 'nothing new' | 'empty'} kind
 * @property {number} listed files in the listing
 * @property {number} ms the execution's time
 * @property {Record<string, number>} nodeMs each node's time (its start to its end in n8n's event log), by node name
 * @property {number} rss peak resident memory of n8n (and its children) while the run ran
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
 * Runs the published workflow once through its webhook and returns its execution as n8n's event log
 * has it (the log is written a moment after the run ends), with n8n's peak memory meanwhile.
 * @param {import('./n8n-process').N8nProcess} server
 * @param {string} n8nFolder
 * @param {string} workflowId
 * @returns {Promise<{ execution: import('./figures').Execution, rss: number }>}
 */
async function execute(server, n8nFolder, workflowId) {
	const before = new Set(loggedExecutions(n8nFolder, workflowId).map((e) => e.id));
	let rss = 0;
	const sample = setInterval(() => (rss = Math.max(rss, treeRss(server.pid))), 200);
	try {
		const response = await fetch(`${server.url}/webhook/${DRIVE_WEBHOOK}`, {
			signal: AbortSignal.timeout(300_000),
		});
		await response.arrayBuffer();
		const deadline = Date.now() + 30_000;
		for (;;) {
			const execution = loggedExecutions(n8nFolder, workflowId).find(
				(e) => !before.has(e.id) && e.stoppedAt !== null,
			);
			if (execution) return { execution, rss };
			if (Date.now() > deadline)
				throw new Error(
					`the webhook answered ${response.status}, and no ended execution reached n8n's event log within 30 s`,
				);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	} finally {
		clearInterval(sample);
	}
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
		fs.cpSync(nodesTemplate, path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
		const server = await step(
			'n8n start answers',
			async () => await startN8n({ env, logFile: path.join(work, 'n8n.log') }),
		);
		cleanups.push(() => server.stop());
		const workflowId = await step(`workflow "${workflow.name}" published`, async () => {
			const cookie = await session(server.url);
			const credential = { ...n8n.EMULATOR_CREDENTIAL, type: 'eventPicsApi' };
			const id = await createCredential(server.url, cookie, {
				name: credential.name,
				type: credential.type,
				data: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
			});
			const published = await publish(server.url, cookie, workflow, { ...credential, id });
			// n8n registers a published workflow's webhook a moment later
			drive.show(0);
			const { response } = await n8n.waitForWebhook(`${server.url}/webhook/${DRIVE_WEBHOOK}`);
			if (!response.ok) throw new Error(`its webhook answered ${response.status}`);
			return published;
		});
		const n8nFolder = path.join(userFolder, '.n8n');

		/** @type {DriveRun[]} */
		const runs = [];
		/** @param {string} label @param {DriveRun['kind']} kind @param {number} listed */
		const run = async (label, kind, listed) =>
			await step(`run: ${label}`, async () => {
				drive.show(listed);
				const before = { ...drive.counts(), stored: emulator.uploads.length };
				const { execution, rss } = await execute(server, n8nFolder, workflowId);
				if (execution.status !== 'success')
					throw new Error(`the execution ended ${execution.status} (n8n's log: ${work}/n8n.log)`);
				const after = drive.counts();
				/** @type {DriveRun} */
				const result = {
					label,
					kind,
					listed,
					ms: Number(execution.stoppedAt) - Number(execution.startedAt),
					nodeMs: execution.nodeMs,
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
		// in turns, so that a pair meets the machine as it is at that moment (a busy CI machine's load
		// comes and goes over a minute: two blocks of runs would compare two different machines)
		for (let i = 1; i <= repeat; i++) {
			await run(`100 %, nothing new (${i})`, 'nothing new', files);
			await run(`empty folder (${i})`, 'empty', 0);
		}

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
