import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { createEngine, runWorkflow, START_NODE_TYPE } from './index';

/** Throwaway node: adds `field` = `value` (an expression in the workflow) to each item. */
class SetField implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Set Field',
		name: 'setField',
		group: ['transform'],
		version: [1, 2],
		description: 'test',
		defaults: { name: 'Set Field' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Field', name: 'field', type: 'string' as const, default: 'x' },
			{ displayName: 'Value', name: 'value', type: 'string' as const, default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, i) => ({
				json: {
					...item.json,
					[this.getNodeParameter('field', i) as string]: this.getNodeParameter('value', i),
					version: this.getNode().typeVersion,
				},
				pairedItem: { item: i },
			})),
		];
	}
}

const main = (node: string) => ({ main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]] });

describe('engine harness: full workflows', () => {
	const nodeTypes = { 'test.setField': new SetField() };

	it('runs start -> A -> B with expressions over earlier nodes, latest type version by default', async () => {
		const result = await runWorkflow({
			nodeTypes,
			nodes: [
				{ name: 'Start', type: START_NODE_TYPE },
				{ name: 'A', type: 'test.setField', parameters: { field: 'a', value: '={{ $json.n * 10 }}' } },
				{ name: 'B', type: 'test.setField', typeVersion: 1, parameters: { field: 'b', value: "={{ $('A').item.json.a + '!' }}" } },
			],
			connections: { Start: main('A'), A: main('B') },
			inputItems: [{ json: { n: 1 } }, { json: { n: 2 } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs.A.map((i) => i.json)).toEqual([
			{ n: 1, a: 10, version: 2 }, // expressions keep their type
			{ n: 2, a: 20, version: 2 },
		]);
		expect(result.outputs.B.map((i) => i.json)).toEqual([
			{ n: 1, a: 10, b: '10!', version: 1 },
			{ n: 2, a: 20, b: '20!', version: 1 },
		]);
	});

	it('destinationNode stops the run after that node', async () => {
		const result = await runWorkflow({
			nodeTypes,
			nodes: [
				{ name: 'Start', type: START_NODE_TYPE },
				{ name: 'A', type: 'test.setField', parameters: { value: '1' } },
				{ name: 'B', type: 'test.setField', parameters: { value: '2' } },
			],
			connections: { Start: main('A'), A: main('B') },
			destinationNode: 'A',
		});
		expect(Object.keys(result.outputs).sort()).toEqual(['A', 'Start']);
	});

	it('createEngine keeps registries as defaults for every call', async () => {
		const engine = createEngine({ nodeTypes });
		const result = await engine.runNode({ nodeType: 'test.setField', parameters: { field: 'k', value: 'v' } });
		expect(result.items.map((i) => i.json)).toEqual([{ k: 'v', version: 2 }]);
	});

	it('runs under plain node too (self-check script, no jest)', async () => {
		const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'selfcheck.js')], {
			cwd: join(__dirname, '..', '..', '..'),
			env: { ...process.env, NODE_OPTIONS: '', N8N_USER_FOLDER: '' },
		});
		expect(stdout).toMatch(/^engine harness self-check OK in \d+ ms/);
	});
});
