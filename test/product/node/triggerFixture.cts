import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import { EventPicsTrigger } from '../../../nodes/EventPicsTrigger/EventPicsTrigger.node';
import type { Emulator } from './fixture.cts';
import { credentialTypes, nodeTypes, startEmulator } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

export const TRIGGER_TYPE = 'n8n-nodes-eventpics.eventPicsTrigger';
export const triggerTypes = { ...nodeTypes, [TRIGGER_TYPE]: new EventPicsTrigger() };

/** The emulator with its control over events and albums (test/tools/emulator/accounts.js). */
export interface TriggerEmulator extends Emulator {
	addEvent: (event: {
		linkId: string;
		title: string;
		albums?: Array<{ id?: string; albumId?: string; title: string }>;
		apiKey?: string;
	}) => IDataObject;
	removeEvent: (linkId: string, apiKey?: string) => void;
	addAlbum: (
		linkId: string,
		album: { id?: string; albumId?: string; title: string },
	) => IDataObject;
	removeAlbum: (linkId: string, albumId: string, apiKey?: string) => void;
	clearFaults: () => void;
}

export async function startTriggerEmulator(): Promise<TriggerEmulator> {
	return (await startEmulator()) as TriggerEmulator;
}

export interface PollTick {
	emitted: INodeExecutionData[][] | null;
	error?: IDataObject & { message: string; description?: string; httpCode?: string };
	run?: {
		status: string;
		outputs: Record<string, INodeExecutionData[]>;
		nodeErrors: Record<string, IDataObject>;
		text: () => string;
	};
	logs: Array<{ level: string; message: string }>;
}

export interface Poller {
	activate: () => Promise<PollTick>;
	poll: () => Promise<PollTick>;
	saved: () => IDataObject;
	current: () => IDataObject;
	editCredential: (type: string, data: IDataObject) => void;
}

export interface PollerOptions {
	emu: Emulator;
	parameters?: INodeParameters;
	apiKey?: string;
	baseUrl?: string;
	staticData?: IDataObject;
	nodeName?: string;
	nodes?: Array<Partial<INode> & { name: string; type: string }>;
	connections?: IConnections;
	nodeTypes?: Record<string, unknown>;
	/** Other credential types than the package's (a credential whose authentication fails inside n8n). */
	credentialTypes?: Record<string, unknown>;
	credentialId?: string;
}

/** The EventPics Trigger in an active workflow, ticked as n8n ticks it (test/tools/engine/poll.js). */
export async function createPoller(options: PollerOptions): Promise<Poller> {
	return (await engine.createPoller({
		nodeType: TRIGGER_TYPE,
		nodeTypes: { ...triggerTypes, ...options.nodeTypes },
		credentialTypes: { ...credentialTypes, ...options.credentialTypes },
		credentials: {
			eventPicsApi: {
				apiKey: options.apiKey ?? options.emu.apiKey,
				baseUrl: options.baseUrl ?? options.emu.baseUrl,
			},
		},
		parameters: options.parameters ?? {},
		staticData: options.staticData,
		nodeName: options.nodeName,
		nodes: options.nodes,
		connections: options.connections,
		credentialId: options.credentialId,
	})) as Poller;
}

/** "Fetch Test Event": the trigger alone, run by the engine in manual mode, as the editor runs it. */
export async function fetchTestEvent(options: {
	emu: Emulator;
	parameters?: INodeParameters;
	apiKey?: string;
	staticData?: IDataObject;
}) {
	const result = await engine.runWorkflow({
		nodes: [{ name: 'Trigger', type: TRIGGER_TYPE, parameters: options.parameters ?? {} }],
		nodeTypes: triggerTypes,
		credentialTypes,
		credentials: {
			eventPicsApi: { apiKey: options.apiKey ?? options.emu.apiKey, baseUrl: options.emu.baseUrl },
		},
		mode: 'manual',
		staticData: options.staticData,
	});
	return {
		status: result.status as string,
		items: (result.outputs.Trigger ?? []) as INodeExecutionData[],
		nodeError: result.nodeErrors.Trigger as
			(IDataObject & { message: string; description?: string }) | undefined,
		staticData: result.staticData as IDataObject,
		text: result.text as () => string,
	};
}

/** The JSON of every item a tick emitted. */
export const emittedJson = (tick: PollTick) => (tick.emitted?.[0] ?? []).map((item) => item.json);

export const newAlbumParameters = (linkId?: string): INodeParameters =>
	linkId === undefined
		? { triggerOn: 'newAlbum' }
		: {
				triggerOn: 'newAlbum',
				albumsOf: 'one',
				event: { __rl: true, mode: 'list', value: linkId },
			};
