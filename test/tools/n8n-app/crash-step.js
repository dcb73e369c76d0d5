// @ts-check
'use strict';

/**
 * A step of `npm run test:n8n` (check.js): n8n killed in the middle of a run with Skip Files
 * Uploaded Before, and the next run. 24 photos in a folder, the emulator answers each getuploadurl
 * after 1 s, the node uploads 4 at a time; once 8 photos arrived, the `n8n execute` process
 * (and the task runner it started) gets SIGKILL. Then `n8n execute` again, on the same database:
 * every photo that had not arrived must be stored now, and a photo it skips must have arrived.
 * Returns the counts for the log.
 */

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startEmulator } = require('../emulator');
const n8n = require('./n8n');
const paths = require('./paths');

const PHOTOS = 24;
const KILL_AFTER = 8;
const WORKFLOW_ID = 'eventpicsCrashCheck';
/** Its own emulator and credential: the other steps' upload counts stay as they are. */
const CREDENTIAL = { id: 'eventpicsCrashCheck1', name: 'EventPics (crash check)' };

/**
 * The execution `n8n execute --rawOutput` printed, whatever n8n logged after it (n8n 2.41.1 on Node
 * 24.21 sometimes also dies of a signal while exiting, after printing it).
 * @param {string} stdout
 */
function executionOf(stdout) {
	const start = stdout.search(/^\{/m);
	const end = stdout.lastIndexOf('\n}') + 2;
	if (start < 0 || end < 2)
		throw new Error(`n8n execute printed no execution:\n${stdout.slice(-2000)}`);
	return JSON.parse(stdout.slice(start, end));
}

/** @param {string} folder */
function workflow(folder) {
	const upload = {
		id: 'crash-upload',
		name: 'Upload',
		type: 'n8n-nodes-eventpics.eventPics',
		typeVersion: 1,
		position: [440, 0],
		parameters: {
			resource: 'photo',
			operation: 'upload',
			simplify: false,
			event: { __rl: true, mode: 'id', value: 'wedding-anna-ben' },
			album: { __rl: true, mode: 'id', value: 'booth' },
			takenAtMode: 'none',
			options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 4 },
		},
		credentials: { eventPicsApi: CREDENTIAL },
	};
	const link = (/** @type {string} */ from, /** @type {string} */ to) => ({
		[from]: { main: [[{ node: to, type: 'main', index: 0 }]] },
	});
	return {
		id: WORKFLOW_ID,
		name: 'Crash check',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'crash-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'crash-read',
				name: 'Read',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { operation: 'read', fileSelector: path.join(folder, '*.jpg'), options: {} },
			},
			upload,
		],
		connections: { ...link('Start', 'Read'), ...link('Read', 'Upload') },
	};
}

/**
 * @param {{ env: NodeJS.ProcessEnv, folder: string, sample: string, delays?: { getUploadUrlMs: number, putMs: number }, killAfter?: number, fit?: (workflow: any) => any }} options
 *   `fit` sets the workflow's node versions to those the installed n8n has (check.js's fitToInstalled)
 *   `folder` must be readable by n8n (N8N_RESTRICT_FILE_ACCESS_TO) and not exist yet
 */
async function crashStep(options) {
	fs.mkdirSync(options.folder, { recursive: true });
	const emulator = await startEmulator({
		storageDir: path.join(options.folder, '..', 'crash-emulator'),
	});
	try {
		const file = path.join(options.folder, '..', 'crash-credential.json');
		const data = { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl };
		fs.writeFileSync(file, JSON.stringify([{ ...CREDENTIAL, type: 'eventPicsApi', data }]));
		await n8n.mustRun(['import:credentials', `--input=${file}`], options.env);
		return await killAndRunAgain({ ...options, emulator });
	} finally {
		await emulator.close();
	}
}

/** @param {{ env: NodeJS.ProcessEnv, emulator: any, folder: string, sample: string, delays?: { getUploadUrlMs: number, putMs: number }, killAfter?: number, fit?: (workflow: any) => any }} options */
async function killAndRunAgain({
	env,
	emulator,
	folder,
	sample,
	delays = { getUploadUrlMs: 1000, putMs: 0 },
	killAfter = KILL_AFTER,
	fit = (/** @type {any} */ workflow) => workflow,
}) {
	const head = fs.readFileSync(sample);
	const names = Array.from({ length: PHOTOS }, (_, i) => `crash-${String(i).padStart(2, '0')}.jpg`);
	for (const name of names)
		fs.writeFileSync(path.join(folder, name), Buffer.concat([head, crypto.randomBytes(4000)]));
	const file = path.join(folder, '..', 'crash-workflow.json');
	await n8n.importWorkflow(fit(workflow(folder)), file, env);

	const before = emulator.uploads.length;
	// EventPics answers getuploadurl after 1 s: a file killed while it waits for its address never
	// arrives (a PUT whose body was sent is stored even after the kill)
	emulator.addFault({ endpoint: 'getuploadurl', kind: 'delay', ms: delays.getUploadUrlMs });
	if (delays.putMs > 0) emulator.addFault({ endpoint: 'put', kind: 'delay', ms: delays.putMs });
	// ports of its own (as runCli gives every n8n process), and its own process group: SIGKILL
	// reaches n8n and the task runner it starts
	const child = spawn(paths.nodeBin, [paths.n8nBin, 'execute', `--id=${WORKFLOW_ID}`], {
		env: await n8n.withOwnPorts(env),
		cwd: env.N8N_USER_FOLDER,
		stdio: 'ignore',
		detached: true,
	});
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve(signal ?? code)),
	);
	const deadline = Date.now() + 120_000;
	while (emulator.uploads.length - before < killAfter && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
	assert.equal(await exited, 'SIGKILL', 'n8n ended before it was killed');
	// a PUT whose body was sent before the kill is still stored when its delay is over
	await new Promise((resolve) => setTimeout(resolve, delays.putMs + 500));
	const arrived = new Set(emulator.uploads.slice(before).map((/** @type {any} */ u) => u.fileName));
	assert.ok(
		arrived.size >= killAfter && arrived.size < PHOTOS,
		`${arrived.size} photos arrived before the kill`,
	);
	emulator.clearFaults();

	const again = emulator.uploads.length;
	const run = await n8n.runCli(['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], env);
	const execution = executionOf(run.stdout);
	try {
		n8n.assertSucceeded(execution);
	} catch (error) {
		throw new Error(`the run after the kill did not succeed (exit ${run.code}): ${error}`);
	}
	const items = execution.data.resultData.runData.Upload[0].data.main[0].map(
		(/** @type {any} */ i) => i.json,
	);
	const skipped = items
		.filter((/** @type {any} */ i) => i.outcome === 'skipped')
		.map((/** @type {any} */ i) => i.fileName);
	const storedNow = /** @type {string[]} */ (
		emulator.uploads.slice(again).map((/** @type {any} */ u) => u.fileName)
	);
	for (const name of skipped)
		assert.ok(arrived.has(name), `${name} was skipped but had never arrived`);
	assert.deepEqual(
		names.filter((name) => !arrived.has(name) && !storedNow.includes(name)),
		[],
	);
	assert.equal(
		new Set(storedNow).size,
		storedNow.length,
		'a photo was stored twice in the second run',
	);
	assert.equal(skipped.length + storedNow.length, PHOTOS);
	return {
		arrived: arrived.size,
		skipped: skipped.length,
		sentAgain: storedNow.filter((n) => arrived.has(n)).length,
	};
}

module.exports = { crashStep };
