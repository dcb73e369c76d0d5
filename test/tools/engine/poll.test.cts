import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { createPoller, runWorkflow } from './index';

/**
 * Throwaway poll node: counts its polls in the node's static data; emits the count when the
 * "emitEvery" parameter divides it, throws (once) when "failAt" equals it, and tells its mode.
 */
class CountingPoll implements INodeType {
	failed = new Set<number>();

	description: INodeTypeDescription = {
		displayName: 'Counting Poll',
		name: 'countingPoll',
		group: ['trigger'],
		version: 1,
		description: 'test',
		defaults: { name: 'Counting Poll' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Emit Every', name: 'emitEvery', type: 'number', default: 2 },
			{ displayName: 'Fail At', name: 'failAt', type: 'number', default: 0 },
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const data = this.getWorkflowStaticData('node');
		const count = ((data.count as number) ?? 0) + 1;
		if (
			count === this.getNodeParameter('failAt') &&
			!nodeTypes['test.countingPoll'].failed.has(count)
		) {
			nodeTypes['test.countingPoll'].failed.add(count);
			throw new NodeOperationError(this.getNode(), `failed at ${count}`);
		}
		data.count = count;
		if (count % (this.getNodeParameter('emitEvery') as number) !== 0) return null;
		return [[{ json: { count, mode: this.getMode(), activation: this.getActivationMode() } }]];
	}
}

/** Throwaway node after the trigger: doubles the count. */
class Double implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Double',
		name: 'double',
		group: ['transform'],
		version: 1,
		description: 'test',
		defaults: { name: 'Double' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item) => ({ json: { doubled: (item.json.count as number) * 2 } })),
		];
	}
}

const nodeTypes = { 'test.countingPoll': new CountingPoll(), 'test.double': new Double() };

describe('engine harness: poll triggers (createPoller)', () => {
	it('ticks through n8n-core: activation and polls share the static data; mode trigger, activation kept', async () => {
		const poller = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { emitEvery: 2 },
		});
		const first = await poller.activate();
		expect(first.emitted).toBeNull();
		const second = await poller.poll();
		expect(second.emitted).toEqual([
			[{ json: { count: 2, mode: 'trigger', activation: 'activate' } }],
		]);
		expect((await poller.poll()).emitted).toBeNull();
		expect(poller.current()).toEqual({ 'node:Trigger': { count: 3 } });
	});

	it('saves the static data as n8n does: after activation and on each emit, not after a quiet poll', async () => {
		const poller = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { emitEvery: 2 },
		});
		expect(poller.saved()).toEqual({});
		await poller.activate();
		expect(poller.saved()).toEqual({ 'node:Trigger': { count: 1 } });
		await poller.poll();
		expect(poller.saved()).toEqual({ 'node:Trigger': { count: 2 } });
		await poller.poll();
		expect(poller.saved()).toEqual({ 'node:Trigger': { count: 2 } });
		const restarted = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { emitEvery: 2 },
			staticData: poller.saved(),
		});
		expect((await restarted.activate()).emitted).toBeNull();
		expect((await restarted.poll()).emitted?.[0][0].json.count).toBe(4);
	});

	it('an error at activation is thrown; an error at a later poll is reported and the workflow stays', async () => {
		nodeTypes['test.countingPoll'].failed.clear();
		const failing = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { failAt: 1 },
		});
		await expect(failing.activate()).rejects.toThrow('failed at 1');
		const later = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { failAt: 2, emitEvery: 3 },
		});
		await later.activate();
		const failed = await later.poll();
		expect(failed.error).toBeInstanceOf(NodeOperationError);
		expect(failed.error.message).toBe('failed at 2');
		expect(failed.emitted).toBeNull();
		expect((await later.poll()).emitted).toBeNull(); // count 2 again: the failed poll stored nothing
		expect((await later.poll()).emitted?.[0][0].json.count).toBe(3);
	});

	it('runs the rest of the workflow from what the trigger emitted, as n8n runs a polled execution', async () => {
		const poller = await createPoller({
			nodeType: 'test.countingPoll',
			nodeTypes,
			parameters: { emitEvery: 1 },
			nodes: [{ name: 'Double', type: 'test.double' }],
			connections: {
				Trigger: { main: [[{ node: 'Double', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
		});
		const tick = await poller.activate();
		expect(tick.run?.status).toBe('success');
		expect(tick.run?.outputs.Double.map((item) => item.json)).toEqual([{ doubled: 2 }]);
		expect(tick.run?.outputs.Trigger.map((item) => item.json.count)).toEqual([1]);
	});

	it('a manual run (Fetch Test Event) polls once in manual mode and hands back the static data it ended with', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Poll', type: 'test.countingPoll', parameters: { emitEvery: 1 } }],
			nodeTypes,
			mode: 'manual',
			staticData: { 'node:Poll': { count: 41 } },
		});
		expect(result.outputs.Poll.map((item) => item.json)).toEqual([
			{ count: 42, mode: 'manual', activation: 'manual' },
		]);
		expect(result.staticData).toEqual({ 'node:Poll': { count: 42 } });
	});
});
