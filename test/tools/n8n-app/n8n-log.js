// @ts-check
'use strict';

/**
 * What a published workflow did, read from n8n's own log. A workflow that saves no successful
 * execution (the booth example: saveDataSuccessExecution "none") leaves nothing to read through the
 * REST API or the CLI once a run ended, so `n8n start` writes its debug log as JSON lines into a file
 * (logEnv) and this counts, per workflow, the runs n8n-core's WorkflowExecute logged: "Workflow
 * execution started", "Start executing node "<name>"", "Workflow execution finished successfully"
 * or "... with error" (each with the workflow's id in its metadata). A node that gets no item does
 * not run, so a node's count is the runs in which it had something to do.
 */

const fs = require('node:fs');

/**
 * The settings that make `n8n start` write that log (debug level, JSON, into `file`; the console
 * gets the same lines).
 * @param {string} file
 * @returns {Record<string, string>}
 */
function logEnv(file) {
	return { N8N_LOG_LEVEL: 'debug', N8N_LOG_OUTPUT: 'console,file', N8N_LOG_FILE_LOCATION: file };
}

/**
 * @typedef {object} Activity
 * @property {number} started   runs that started
 * @property {number} finished  runs that ended (successfully or not)
 * @property {number} failed    runs that ended with an error
 * @property {number[]} startTimes  when each run started (ms since the epoch)
 * @property {Record<string, number>} nodes  per node name, the runs in which it ran
 */

/**
 * @param {string} file the log (logEnv)
 * @param {string} workflowId
 * @returns {Activity}
 */
function activityOf(file, workflowId) {
	/** @type {Activity} */
	const activity = { started: 0, finished: 0, failed: 0, startTimes: [], nodes: {} };
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	for (const line of text.split('\n')) {
		if (!line.includes(workflowId)) continue;
		let entry;
		try {
			entry = JSON.parse(line);
		} catch {
			continue; // a line n8n is still writing
		}
		if (entry.metadata?.workflowId !== workflowId) continue;
		const node = /^Start executing node "(.+)"$/.exec(entry.message)?.[1];
		if (node) activity.nodes[node] = (activity.nodes[node] ?? 0) + 1;
		else if (entry.message === 'Workflow execution started') {
			activity.started++;
			activity.startTimes.push(Date.parse(entry.metadata.timestamp));
		} else if (entry.message === 'Workflow execution finished successfully') activity.finished++;
		else if (entry.message === 'Workflow execution finished with error') {
			activity.finished++;
			activity.failed++;
		}
	}
	return activity;
}

/**
 * What happened since `before`: the difference of each count (and the start times after it).
 * @param {Activity} before @param {Activity} now
 * @returns {Activity}
 */
function since(before, now) {
	/** @type {Record<string, number>} */
	const nodes = {};
	for (const [name, count] of Object.entries(now.nodes))
		nodes[name] = count - (before.nodes[name] ?? 0);
	return {
		started: now.started - before.started,
		finished: now.finished - before.finished,
		failed: now.failed - before.failed,
		startTimes: now.startTimes.slice(before.startTimes.length),
		nodes,
	};
}

/**
 * Waits until `until` holds for the activity since `before`, every run that started has ended, and
 * nothing more started for `quietMs` (longer than the Local File Trigger's Await Write Finish, which
 * reports a file 2 s after it stopped growing: an event still on its way shows up in that time).
 * Returns the activity since `before`; fails with it after `timeoutMs`.
 * @param {{ file: string, workflowId: string, before: Activity, until: (a: Activity) => boolean, what: string, quietMs?: number, timeoutMs?: number }} options
 * @returns {Promise<Activity>}
 */
async function settled({
	file,
	workflowId,
	before,
	until,
	what,
	quietMs = 3000,
	timeoutMs = 120_000,
}) {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	let quietSince = Date.now();
	for (;;) {
		const now = since(before, activityOf(file, workflowId));
		const seen = JSON.stringify(now);
		if (seen !== last) quietSince = Date.now();
		last = seen;
		const done = until(now) && now.finished === now.started;
		if (done && Date.now() - quietSince >= quietMs) return now;
		if (Date.now() > deadline)
			throw new Error(
				`n8n's log after ${timeoutMs / 1000} s: ${what} did not happen; runs: ${seen}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Waits until n8n logged that it activated the workflow's trigger ("Activated trigger node ..." in
 * n8n 2.x, "Activated workflow ..." in 1.x): a Local File Trigger then watches its folder.
 * @param {string} file @param {string} workflowId @param {number} [timeoutMs]
 */
async function triggerActivated(file, workflowId, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	const activated = () =>
		fs.existsSync(file) &&
		fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.some((line) => line.includes(workflowId) && line.includes('"message":"Activated '));
	while (!activated()) {
		if (Date.now() > deadline)
			throw new Error(`n8n did not log the activation of workflow ${workflowId}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

module.exports = { logEnv, activityOf, since, settled, triggerActivated };
