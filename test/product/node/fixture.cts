import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	NodeExecutionHint,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { EventPicsApi } from '../../../credentials/EventPicsApi.credentials';
import { EventPics } from '../../../nodes/EventPics/EventPics.node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const emulator = require('../../tools/emulator');

export const NODE_TYPE = 'n8n-nodes-eventpics.eventPics';
export const nodeTypes = { [NODE_TYPE]: new EventPics() };
export const credentialTypes = { eventPicsApi: new EventPicsApi() };
export const { binaryFromBuffer, binaryFromFile, inlineBinary, callListSearch } = engine;

/**
 * An ordinary photo or video as a test input: `size` bytes, the signature of the format `extension`
 * names (jpg, png, gif, webp, heic, avif, tif, bmp, mp4, mov, avi, webm, mkv, mpg, ...), then random
 * bytes, different on each call as `randomBytes` (the node refuses a file named as a photo or video
 * whose first bytes are no such format). Shared with the tools: test/tools/media-bytes.js.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const mediaBytes: (size: number, extension?: string) => Buffer =
	require('../../tools/media-bytes').mediaBytes;

/**
 * n8n's credential test: the credential type has no `test`, so n8n finds the node that declares
 * `testedBy` for it (EventPics.node.ts) among the node types, as here.
 */
export const testCredential = (
	options: IDataObject,
): Promise<{ status: string; message: string }> => engine.testCredential({ nodeTypes, ...options });

/** The credential test of an EventPics credential: the emulator's key and Base URL unless given. */
export const credentialTest = (emu: Emulator, data: { apiKey?: string; baseUrl?: string } = {}) =>
	testCredential({
		credentialType: 'eventPicsApi',
		credentialTypes,
		credentials: { apiKey: emu.apiKey, baseUrl: emu.baseUrl, ...data },
	});

/** A dropdown's list search (the Event one unless named), with the emulator's credential unless given. */
export const searchList = (
	emu: Emulator,
	{
		methodName = 'searchEvents',
		parameters = {},
		filter,
		...data
	}: {
		methodName?: string;
		parameters?: object;
		filter?: string;
		apiKey?: string;
		baseUrl?: string;
	},
) =>
	callListSearch({
		nodeType: NODE_TYPE,
		nodeTypes,
		credentialTypes,
		credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl, ...data } },
		methodName,
		parameters,
		filter,
	});

/** Event > Get Many, every event. */
export const GET_ALL_EVENTS = { resource: 'event', operation: 'getAll', returnAll: true };

export interface Emulator {
	baseUrl: string;
	storageUrl: string;
	/** A second loopback listener that redirect faults point to; `elsewhere` is everything it received. */
	elsewhereUrl: string;
	elsewhere: Array<{ method: string; url: string; headers: Record<string, string>; body: string }>;
	apiKey: string;
	otherApiKey: string;
	storageDir: string;
	uploads: IDataObject[];
	requests: Array<{
		server: 'api' | 'storage';
		method: string;
		url: string;
		headers: Record<string, string>;
		status: number;
		startedAt: number;
		endedAt?: number;
	}>;
	addFault: (rule: IDataObject) => void;
	setOptions: (options: IDataObject) => void;
	reset: () => void;
	close: () => Promise<void>;
}

export async function startEmulator(options: IDataObject = {}): Promise<Emulator> {
	return (await emulator.startEmulator({ seed: 42, ...options })) as Emulator;
}

/**
 * One emulator for the enclosing describe block (or file): started before its first test, reset
 * before each test, closed after the last. What it returns stands for that emulator from the first
 * test on (a proxy, since the emulator starts after the block is declared).
 */
export function useEmulator<E extends Emulator = Emulator>(options: IDataObject = {}): E {
	let started: E | undefined;
	beforeAll(async () => (started = (await startEmulator(options)) as E));
	afterAll(async () => await started?.close());
	beforeEach(() => started!.reset());
	return late(() => started);
}

/** Stands for the object `get` returns once the tests run (a server a hook starts). */
export const late = <T extends object>(get: () => T | undefined): T =>
	new Proxy({} as T, { get: (_target, key) => Reflect.get(get()!, key) });

export interface RunResult {
	items: INodeExecutionData[];
	/** The execution hints the node added (n8n's editor shows them above the output). */
	nodeHints: NodeExecutionHint[];
	/** Every output of each node: with onError 'continueErrorOutput' the error output is [1]. */
	allOutputs: Record<string, INodeExecutionData[][]>;
	nodeName: string;
	nodeError?: {
		message: string;
		description?: string;
		httpCode?: string;
		context?: IDataObject;
	} & IDataObject;
	error?: IDataObject;
	status: string;
	logs: Array<{ level: string; message: string }>;
	text: () => string;
}

export interface RunOptions {
	emu: Emulator;
	parameters: INodeParameters;
	inputItems?: Array<{ json?: IDataObject; binary?: IDataObject }>;
	continueOnFail?: boolean;
	/** n8n's "On Error" setting of the node; `continueOnFail` is 'continueRegularOutput'. */
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	apiKey?: string;
	baseUrl?: string;
	/** Workflow settings, e.g. { timezone: 'Europe/Berlin' } */
	settings?: IDataObject;
	/** n8n's execution mode (default 'manual', a run from the editor), e.g. 'webhook' for production. */
	mode?: WorkflowExecuteMode;
}

/** Runs "start -> EventPics" through the real n8n engine against the emulator. */
export async function runEventPics(options: RunOptions): Promise<RunResult> {
	return (await engine.runNode({
		nodeType: NODE_TYPE,
		nodeTypes,
		credentialTypes,
		credentials: {
			eventPicsApi: {
				apiKey: options.apiKey ?? options.emu.apiKey,
				baseUrl: options.baseUrl ?? options.emu.baseUrl,
			},
		},
		parameters: options.parameters,
		inputItems: options.inputItems,
		continueOnFail: options.continueOnFail,
		onError: options.onError,
		settings: options.settings,
		mode: options.mode,
	})) as RunResult;
}

/** An input item with one file in the binary field "data" (its MIME type from its name unless given). */
export const fileItem = (
	fileName: string,
	data: Buffer | string,
	mimeType?: string,
	json: IDataObject = {},
) => ({
	json,
	binary: { data: binaryFromBuffer(data, { fileName, ...(mimeType && { mimeType }) }) },
});

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });
export const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

/** The most requests of one server that were open at the same moment (from the emulator's log). */
export function maxOverlap(emu: Emulator, server: 'api' | 'storage'): number {
	const events: Array<[number, number]> = [];
	for (const request of emu.requests.filter((r) => r.server === server)) {
		events.push([request.startedAt, 1], [request.endedAt ?? Number.POSITIVE_INFINITY, -1]);
	}
	events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let open = 0;
	let most = 0;
	for (const [, change] of events) {
		open += change;
		most = Math.max(most, open);
	}
	return most;
}

/** Options > Taken At, as the editor stores it: where the date comes from, and the fallback and value. */
export interface TakenAt {
	source?: 'exif' | 'value' | 'now' | 'none';
	fallback?: 'none' | 'now' | 'value';
	value?: unknown;
}

/**
 * Parameters of Photo > Upload into the demo wedding's photo booth album, with `extra` on top;
 * `takenAt` is put where the editor keeps it (Options > Taken At).
 */
export const uploadParameters = ({
	takenAt,
	...extra
}: { takenAt?: TakenAt; options?: object } & Record<string, unknown> = {}): INodeParameters => ({
	resource: 'photo',
	operation: 'upload',
	event: fromList('wedding-anna-ben'),
	album: fromList('booth'),
	// the engine tests read every field of the output; Simplify (on by default) has tests of its own
	simplify: false,
	...extra,
	options: {
		...extra.options,
		...(takenAt && { takenAt: { settings: { source: 'exif', ...takenAt } } }),
	} as INodeParameters,
});

/** What a model was offered for a tool (OpenAI's function format) and what each call answered. */
export interface AgentRun {
	offered: Array<{
		name: string;
		description: string;
		parameters: { properties: Record<string, IDataObject>; required?: string[] } & IDataObject;
	}>;
	answers: Array<{ tool: string; items: IDataObject[]; error?: string }>;
}

/**
 * "EventPics Tool" as an AI agent meets it: Chat -> Agent with the given tool nodes (only the
 * parameters a user set), the agent making `calls` through n8n-core's engine as AI Agent v3 does
 * (test/tools/engine/ai-tool.js).
 */
export async function runAgent(
	emu: Emulator,
	tools: Record<string, INodeParameters>,
	calls: Array<{ tool: string; args: IDataObject }> = [],
): Promise<AgentRun> {
	const toolType = engine.toolTypeName(NODE_TYPE);
	const toAgent = { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] };
	const run = await engine.runWorkflow({
		nodes: [
			{ name: 'Chat', type: engine.START_NODE_TYPE },
			{ name: 'Agent', type: engine.AGENT_TYPE_NAME, parameters: { calls: JSON.stringify(calls) } },
			...Object.entries(tools).map(([name, parameters]) => ({ name, type: toolType, parameters })),
		],
		connections: {
			Chat: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			...Object.fromEntries(Object.keys(tools).map((name) => [name, toAgent])),
		},
		nodeTypes: {
			[toolType]: engine.toolVariant(nodeTypes[NODE_TYPE]),
			[engine.AGENT_TYPE_NAME]: engine.AGENT_TYPE,
		},
		credentialTypes,
		credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
	});
	if (run.error) throw new Error(run.error.message);
	return run.outputs.Agent[0].json as AgentRun;
}
