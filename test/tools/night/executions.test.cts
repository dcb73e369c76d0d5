// The night tier's reading of n8n's event log (executions.js).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { loggedExecutions } = require('./executions');

let dir: string;
beforeAll(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-executions-test-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const line = (eventName: string, at: number, payload: Record<string, unknown>) =>
	JSON.stringify({ eventName, ts: new Date(at).toISOString(), payload });

test("an execution's start, end, nodes and each node's time; another workflow's and a cut line are left out", () => {
	const w = { workflowId: 'w1', executionId: '7', mode: 'webhook' };
	fs.writeFileSync(
		path.join(dir, 'n8nEventLog.log'),
		[
			line('n8n.workflow.started', 1_000, w),
			line('n8n.node.started', 1_010, { ...w, nodeName: 'List files' }),
			line('n8n.node.finished', 1_210, { ...w, nodeName: 'List files' }),
			line('n8n.node.started', 1_215, { ...w, nodeName: 'Keep new files' }),
			line('n8n.node.finished', 1_237, { ...w, nodeName: 'Keep new files' }),
			line('n8n.workflow.started', 1_100, { workflowId: 'w2', executionId: '8' }),
			line('n8n.workflow.success', 1_240, w),
			'{"eventName":"n8n.node.started","ts":"2026',
		].join('\n'),
	);
	expect(loggedExecutions(dir, 'w1')).toEqual([
		{
			id: '7',
			mode: 'webhook',
			status: 'success',
			startedAt: 1_000,
			stoppedAt: 1_240,
			nodes: ['List files', 'Keep new files'],
			nodeMs: { 'List files': 200, 'Keep new files': 22 },
		},
	]);
});
