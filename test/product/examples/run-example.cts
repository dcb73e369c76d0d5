/**
 * Runs an example workflow (examples/*.json) in the real n8n engine against the
 * emulator. Our node runs for real; n8n's own nodes (triggers, Read/Write Files from Disk, Google
 * Drive, AI nodes, sticky notes) are not installed in this repo (n8n-nodes-base alone is 825 MB),
 * so each gets a stand-in type under its real name that the engine needs to build the workflow.
 * A stand-in may only stand for a node whose output the test pins: its execute throws, so a run
 * that reaches one fails the test. The real nodes run in `npm run test:n8n` (booth and form).
 */
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	IPinData,
} from 'n8n-workflow';

import type { Emulator } from '../node/fixture.cts';
import { credentialTypes, NODE_TYPE, nodeTypes } from '../node/fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EMULATOR_TARGET, loadExample } = require('../../tools/examples/examples');

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
}

export const STAND_IN_MESSAGE = 'is a stand-in for the test: its output must be pinned';

/**
 * An example as a test runs it: its empty Event and Album filled with the emulator's demo event and
 * album, as a user picks them from the list after import (`shipped: true`: the file as it is).
 */
export function example(
	name: string,
	options: { boothFolder?: string; shipped?: boolean } = {},
): ExampleWorkflow {
	const target = options.shipped ? undefined : EMULATOR_TARGET;
	return loadExample(name, { boothFolder: options.boothFolder, target }) as ExampleWorkflow;
}

export function nodeNamed(workflow: ExampleWorkflow, name: string): INode {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`The example "${workflow.name}" has no node "${name}"`);
	return node;
}

/** Connection types a node sends (outputs) and receives (inputs), as the example wires it. */
function wiring(workflow: ExampleWorkflow, nodeName: string) {
	const outputs = Object.keys(workflow.connections[nodeName] ?? {});
	const inputs = new Set<string>();
	for (const byType of Object.values(workflow.connections)) {
		for (const [type, lists] of Object.entries(byType)) {
			if (lists.some((list) => (list ?? []).some((target) => target.node === nodeName)))
				inputs.add(type);
		}
	}
	return { inputs: [...inputs], outputs };
}

/** n8n's Form node; its "Form Ending" page (operation completion) is what a guest sees last. */
const FORM_TYPE = 'n8n-nodes-base.form';

/**
 * A stand-in for a Form Ending node that says what its page would show: the title and message,
 * evaluated by n8n's expression engine over the node's input, as n8n 2.41 renders the page. The real
 * page is shown by `npm run test:n8n`, the browser tier and the queue tier.
 */
function formEnding(versions: number[]): INodeType {
	const text = (name: string) => ({
		displayName: name,
		name,
		type: 'string' as const,
		default: '',
	});
	return {
		description: {
			displayName: `${FORM_TYPE} (stand-in: its ending page)`,
			name: FORM_TYPE,
			group: ['transform'],
			version: versions,
			description: 'What the Form Ending page would show',
			defaults: { name: 'Form Ending' },
			inputs: ['main'],
			outputs: ['main'],
			properties: ['operation', 'respondWith', 'completionTitle', 'completionMessage'].map(text),
		},
		async execute(this: IExecuteFunctions) {
			if (this.getNodeParameter('operation', 0) !== 'completion')
				throw new Error(`${FORM_TYPE} ${STAND_IN_MESSAGE}`);
			const title = this.getNodeParameter('completionTitle', 0) as string;
			const message = this.getNodeParameter('completionMessage', 0) as string;
			return [[{ json: { title, message } }]];
		},
	};
}

/**
 * What a stand-in does when the engine runs it: the test's fake of that n8n node (its items out, one
 * list per output), for a node whose output depends on its input (Keep New before it decides which
 * files it gets). `filter` names the parameters n8n evaluates as a filter (the Filter node's
 * `conditions`, evaluated by n8n-workflow's own code).
 */
export interface Fake {
	run: (ctx: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
	filter?: string[];
}

/**
 * n8n's Filter node as it runs: each item whose `conditions` hold (n8n-workflow's own evaluation of a
 * filter parameter) leaves by its one output.
 */
export const FILTER_FAKE: Fake = {
	filter: ['conditions'],
	run: async (ctx) => [
		ctx
			.getInputData()
			.filter(
				(_, itemIndex) =>
					ctx.getNodeParameter('conditions', itemIndex, false, { extractValue: true }) === true,
			)
			.map((item, itemIndex) => ({ ...item, pairedItem: { item: itemIndex } })),
	],
};

/** How a faked node declares a parameter, by its value: a filter, a resource locator, an object, text. */
function declared(value: unknown, filter: boolean) {
	if (filter) return { type: 'filter' as const, default: {} };
	if (typeof value !== 'object' || value === null) return { type: 'string' as const, default: '' };
	if ('__rl' in value) {
		const modes = [{ displayName: 'ID', name: 'id', type: 'string' as const }];
		return { type: 'resourceLocator' as const, default: { mode: 'id', value: '' }, modes };
	}
	return { type: 'collection' as const, default: {}, options: [] };
}

/**
 * A stand-in node type per foreign type of the workflow: same name and versions, never executable
 * (except a Form Ending, see `formEnding`, and a type the test fakes, see `Fake`).
 */
export function standIns(
	workflow: ExampleWorkflow,
	fakes: Record<string, Fake> = {},
): Record<string, INodeType> {
	const types: Record<string, INodeType> = {};
	for (const node of workflow.nodes) {
		if (node.type === NODE_TYPE) continue;
		if (node.type === FORM_TYPE) {
			types[FORM_TYPE] = formEnding(
				workflow.nodes.filter((n) => n.type === FORM_TYPE).map((n) => n.typeVersion),
			);
			continue;
		}
		const { inputs, outputs } = wiring(workflow, node.name);
		const versions = workflow.nodes.filter((n) => n.type === node.type).map((n) => n.typeVersion);
		const mainOutputs =
			node.onError === 'continueErrorOutput'
				? ['main', 'main']
				: outputs.includes('main')
					? ['main']
					: [];
		types[node.type] = {
			description: {
				displayName: `${node.type} (stand-in)`,
				name: node.type,
				group: inputs.length === 0 ? ['trigger'] : ['transform'],
				version: [...new Set(versions)],
				description: 'Stand-in for a node that is not installed in this repo',
				defaults: { name: node.name },
				inputs: inputs as INodeType['description']['inputs'],
				outputs: [
					...mainOutputs,
					...outputs.filter((type) => type !== 'main'),
				] as INodeType['description']['outputs'],
				// a faked node's parameters, as n8n reads them only when its type declares them
				properties: Object.entries(fakes[node.type] ? node.parameters : {}).map(
					([name, value]) => ({
						displayName: name,
						name,
						...declared(value, fakes[node.type]?.filter?.includes(name) === true),
					}),
				),
			},
			async execute(this: IExecuteFunctions) {
				const fake = fakes[node.type];
				if (!fake) throw new Error(`${node.type} ${STAND_IN_MESSAGE}`);
				return await fake.run(this);
			},
		};
	}
	return types;
}

export interface ExampleRun {
	status: string;
	error?: IDataObject;
	outputs: Record<string, INodeExecutionData[]>;
	nodeErrors: Record<string, IDataObject>;
	text: () => string;
}

/** Runs the example from `startNode` with `pinData` for every foreign node on the way. */
export async function runExample(
	workflow: ExampleWorkflow,
	options: { emu: Emulator; startNode: string; pinData: IPinData; fakes?: Record<string, Fake> },
): Promise<ExampleRun> {
	// The examples ship without credentials; the harness gives the EventPics nodes its own.
	return (await engine.runWorkflow({
		nodes: workflow.nodes,
		connections: workflow.connections,
		nodeTypes: { ...standIns(workflow, options.fakes), ...nodeTypes },
		credentialTypes,
		credentials: { eventPicsApi: { apiKey: options.emu.apiKey, baseUrl: options.emu.baseUrl } },
		startNode: options.startNode,
		pinData: options.pinData,
	})) as ExampleRun;
}

/** A file (a path or its bytes) as n8n's file nodes output it: stored in the binary store (filesystem mode), with an id. */
export async function storedFile(
	path: string | Buffer,
	options: { fileName?: string; mimeType?: string } = {},
) {
	return await engine.storeBinary(path, options);
}

export const clearDedupStore: () => void = engine.clearDedupStore;
