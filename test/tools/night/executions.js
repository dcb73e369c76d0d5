// @ts-check
'use strict';

/**
 * The executions of a workflow as n8n's event bus logged them: `.n8n/n8nEventLog.log` (and its
 * rotated `n8nEventLog-<n>.log`), one JSON message a line, written whether or not an execution is
 * saved (a workflow with `saveDataSuccessExecution: 'none'` leaves nothing in the database), kept by
 * n8n to recover executions after a crash. `n8n.workflow.started` opens an execution;
 * `n8n.workflow.success`, `.failed`, `.crashed` or `.cancelled` ends it. An execution that has no
 * end in the log was cut off (n8n was killed while it ran). `n8n.node.finished` names the nodes
 * that ran (a node without input items does not run: after Keep New Files left nothing, the
 * Read/Write Files and Upload nodes do not appear); with `n8n.node.started`, each node's time.
 */

const fs = require('node:fs');
const path = require('node:path');

const ENDS = {
	'n8n.workflow.success': 'success',
	'n8n.workflow.failed': 'error',
	'n8n.workflow.crashed': 'crashed',
	'n8n.workflow.cancelled': 'canceled',
};

/**
 * @param {string} n8nFolder the user folder's .n8n
 * @param {string} workflowId
 * @returns {import('./figures').Execution[]} in the order they started
 */
function loggedExecutions(n8nFolder, workflowId) {
	/** @type {Map<string, import('./figures').Execution>} */
	const executions = new Map();
	const files = fs.readdirSync(n8nFolder).filter((name) => /^n8nEventLog(-\d+)?\.log$/.test(name));
	for (const file of files) {
		for (const line of fs.readFileSync(path.join(n8nFolder, file), 'utf8').split('\n')) {
			if (!line.includes('"n8n.workflow.') && !line.includes('"n8n.node.')) continue;
			/** @type {any} */
			let message;
			try {
				message = JSON.parse(line);
			} catch {
				continue; // a line cut by the kill
			}
			const { executionId, workflowId: workflow } = message.payload ?? {};
			if (workflow !== workflowId || !executionId) continue;
			const at = Date.parse(message.ts);
			/** @type {import('./figures').Execution} */
			const execution = executions.get(executionId) ?? {
				id: String(executionId),
				mode: message.payload.mode ?? '',
				status: 'cut off',
				startedAt: null,
				stoppedAt: null,
				nodes: [],
				nodeMs: {},
			};
			const { nodeName } = message.payload;
			// a node's time: from its start to its end (a node that runs twice adds up)
			if (message.eventName === 'n8n.node.started')
				execution.nodeMs[nodeName] = (execution.nodeMs[nodeName] ?? 0) - at;
			if (message.eventName === 'n8n.node.finished') {
				execution.nodes.push(nodeName);
				execution.nodeMs[nodeName] = (execution.nodeMs[nodeName] ?? 0) + at;
			}
			if (message.eventName === 'n8n.workflow.started') execution.startedAt = at;
			const end = /** @type {Record<string, string>} */ (ENDS)[message.eventName];
			if (end) {
				execution.status = end;
				execution.stoppedAt = at;
			}
			executions.set(executionId, execution);
		}
	}
	return [...executions.values()].sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
}

module.exports = { loggedExecutions };
