import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, JsonObject, INodeTypeDescription } from 'n8n-workflow';

import { runNode } from './index';
import { startTinyServer } from './tiny-server';

/**
 * Throwaway node: GETs `url` per item. A failed request becomes a NodeApiError with a fixed
 * message/description (what a well-behaved node does); `mode: 'operation'` throws a
 * NodeOperationError instead; with continue-on-fail it outputs `{ error }` itself.
 */
class Failing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Failing',
		name: 'failing',
		group: ['transform'],
		version: 1,
		description: 'test',
		defaults: { name: 'Failing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string' as const, default: '' },
			{ displayName: 'Mode', name: 'mode', type: 'string' as const, default: 'api' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				if (this.getNodeParameter('mode', i) === 'operation') {
					throw new NodeOperationError(this.getNode(), `Item ${i} is not valid`, {
						description: 'Set the field "name" on the item',
						itemIndex: i,
					});
				}
				this.logger.info(`calling for item ${i}`, { item: i });
				const body = await this.helpers.httpRequest({ url: this.getNodeParameter('url', i) as string, json: true });
				out.push({ json: body, pairedItem: { item: i } });
			} catch (error) {
				const nodeError =
					error instanceof NodeOperationError
						? error
						: new NodeApiError(this.getNode(), error as JsonObject, {
								message: 'The service refused the request',
								description: 'Check the address',
								itemIndex: i,
							});
				if (this.continueOnFail()) {
					// `json` holding only `error` (or item.error set) is what lets the engine route the
					// item to the error output under onError 'continueErrorOutput'.
					out.push({ json: { error: nodeError.message }, error: nodeError, pairedItem: { item: i } });
					continue;
				}
				throw nodeError;
			}
		}
		return [out];
	}
}

/** A node that ignores continueOnFail: the engine itself must turn its error into an item. */
class Careless extends Failing {
	description = { ...new Failing().description, name: 'careless' };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(this.getNode(), 'Careless failure', { description: 'nothing caught it' });
	}
}

describe('engine harness: node errors and Continue On Fail', () => {
	let server: Awaited<ReturnType<typeof startTinyServer>>;
	beforeAll(async () => {
		server = await startTinyServer((req) =>
			req.url === '/ok' ? { json: { fine: true } } : { status: 503, json: { message: 'down for maintenance' } },
		);
	});
	afterAll(async () => server.close());

	// n8n-workflow's NodeApiError replaces a given `description` with the response body's `message`
	// (response.data.message / data.error.message) when there is one: 'Check the address' is lost.
	it('stops the workflow with the NodeApiError as n8n builds it (message, description, httpCode)', async () => {
		const result = await runNode({
			nodeType: new Failing(),
			parameters: { url: `${server.url}/broken` },
			inputItems: [{ json: { a: 1 } }],
		});
		expect(result.status).toBe('error');
		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'The service refused the request',
			description: 'down for maintenance',
			httpCode: '503',
		});
		expect(result.nodeError).toMatchObject({ message: 'The service refused the request', httpCode: '503' });
		expect(result.error.node.name).toBe('Node Under Test');
	});

	it('NodeOperationError keeps its description', async () => {
		const result = await runNode({ nodeType: new Failing(), parameters: { mode: 'operation' } });
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: 'Item 0 is not valid',
			description: 'Set the field "name" on the item',
		});
	});

	it('continueOnFail: true keeps going and returns one error item per failed item, in order', async () => {
		const result = await runNode({
			nodeType: new Failing(),
			parameters: { url: `={{ $json.ok ? '${server.url}/ok' : '${server.url}/broken' }}` },
			inputItems: [{ json: { ok: true } }, { json: { ok: false } }, { json: { ok: true } }],
			continueOnFail: true,
		});
		expect(result.status).toBe('success');
		expect(result.error).toBeUndefined();
		expect(result.nodeError).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual([
			{ fine: true },
			{ error: 'The service refused the request' },
			{ fine: true },
		]);
		expect(result.items[1].error).toMatchObject({ httpCode: '503', description: 'down for maintenance' });
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	// For a node that throws, n8n's engine passes the node's *input* items through unchanged and
	// records the error on the node's run (the execution still ends with that error).
	it("the engine's own continue-on-fail handling applies to nodes that do not catch", async () => {
		const result = await runNode({
			nodeType: new Careless(),
			onError: 'continueRegularOutput',
			inputItems: [{ json: { a: 1 } }, { json: { a: 2 } }],
		});
		expect(result.items.map((i) => i.json)).toEqual([{ a: 1 }, { a: 2 }]);
		expect(result.nodeError).toMatchObject({ message: 'Careless failure', description: 'nothing caught it' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Careless failure');
	});

	it("onError 'continueErrorOutput' routes failed items to the error output", async () => {
		const result = await runNode({
			nodeType: new Failing(),
			parameters: { url: `={{ $json.ok ? '${server.url}/ok' : '${server.url}/broken' }}` },
			inputItems: [{ json: { ok: true } }, { json: { ok: false } }],
			onError: 'continueErrorOutput',
		});
		const [success, failed] = result.allOutputs['Node Under Test'];
		expect(success.map((i) => i.json)).toEqual([{ fine: true }]);
		expect(failed.map((i) => i.json)).toEqual([{ error: 'The service refused the request' }]);
		expect(failed[0].error).toMatchObject({ httpCode: '503' });
	});

	it('captures the engine log and the node logger in result.logs, and text() holds all of it', async () => {
		const result = await runNode({
			nodeType: new Failing(),
			parameters: { url: `${server.url}/broken` },
		});
		const messages = result.logs.map((l) => `${l.level}: ${l.message}`);
		expect(messages).toContain('info: calling for item 0');
		expect(messages).toContain('debug: Running node "Node Under Test" started');
		expect(messages).toContain('debug: Workflow execution finished with error');
		expect(result.logs.find((l) => l.message === 'calling for item 0')?.metadata).toEqual({ item: 0 });
		const text = result.text();
		expect(text).toContain('The service refused the request');
		expect(text).toContain('calling for item 0');
		expect(text).toContain('down for maintenance'); // the response body kept on the error
	});
});
