import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import type { Emulator } from './fixture.cts';
import { credentialTypes, NODE_TYPE, nodeTypes, startEmulator } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const PHOTO = join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');
const TOOL_TYPE = engine.toolTypeName(NODE_TYPE);
const toolType: INodeType = engine.toolVariant(nodeTypes[NODE_TYPE]);

interface Offer {
	name: string;
	description: string;
	parameters: {
		type: string;
		properties: Record<string, { type: string; description: string }>;
		required?: string[];
	};
}
interface AgentRun {
	offered: Offer[];
	answers: Array<{ tool: string; items: IDataObject[]; error?: string }>;
}

/**
 * "EventPics Tool" as an AI agent meets it: n8n's tool variant of the node, connected to an agent
 * (see test/tools/engine/ai-tool.js). The agent gets the tools from n8n-core's getInputConnectionData
 * and createNodeAsTool; a call goes back through n8n-core's engine as AI Agent v3's do.
 */
describe('EventPics Tool: what an AI agent is offered, as added', () => {
	let emu: Emulator;
	let files: Server;
	let filesUrl: string;
	beforeAll(async () => {
		emu = await startEmulator();
		files = createServer((req, res) => {
			if (req.url !== '/cake.jpg') return void res.writeHead(404).end();
			const bytes = readFileSync(PHOTO);
			res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': bytes.length });
			res.end(bytes);
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await emu.close();
		await new Promise((resolve) => files.close(resolve));
	});
	beforeEach(() => emu.reset());

	/** Runs Start -> Agent with the given tool nodes (only the parameters a user set). */
	async function agent(
		tools: Record<string, INodeParameters>,
		calls: Array<{ tool: string; args: IDataObject }> = [],
	): Promise<AgentRun> {
		const run = await engine.runWorkflow({
			nodes: [
				{ name: 'Chat', type: engine.START_NODE_TYPE },
				{
					name: 'Agent',
					type: engine.AGENT_TYPE_NAME,
					parameters: { calls: JSON.stringify(calls) },
				},
				...Object.entries(tools).map(([name, parameters]) => ({
					name,
					type: TOOL_TYPE,
					parameters,
				})),
			],
			connections: {
				Chat: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				...Object.fromEntries(
					Object.keys(tools).map((name) => [
						name,
						{ ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
					]),
				),
			},
			nodeTypes: { [TOOL_TYPE]: toolType, [engine.AGENT_TYPE_NAME]: engine.AGENT_TYPE },
			credentialTypes,
			credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
		});
		if (run.error) throw new Error(run.error.message);
		return run.outputs.Agent[0].json as unknown as AgentRun;
	}

	const argument = (description: string) => ({ type: 'string', description });
	const LINK_ID = argument('The linkId of the EventPics event, from the tool that lists events');

	it('has a description of its own for each operation (so n8n adds no "Set Automatically")', () => {
		const names = toolType.description.properties.map((property) => property.name);
		expect(names).toContain('toolDescription');
		expect(names).not.toContain('descriptionType');
	});

	it('offers each operation, as added, with what it does and what to pass', async () => {
		const { offered } = await agent({
			'Upload a photo': { resource: 'photo', operation: 'upload' },
			'List events': { resource: 'event', operation: 'getAll' },
			'Get an event': { resource: 'event', operation: 'get' },
			'List albums': { resource: 'album', operation: 'getAll' },
		});
		const byName = Object.fromEntries(offered.map((offer) => [offer.name, offer]));
		expect(Object.keys(byName).sort()).toEqual([
			'Get_an_event',
			'List_albums',
			'List_events',
			'Upload_a_photo',
		]);
		expect(byName.Upload_a_photo).toEqual({
			name: 'Upload_a_photo',
			description:
				"Uploads a photo or video from a public http(s) address into an EventPics event album. Pass the event's linkId, the album id (empty for none) and the file's address as fileUrl. Answers with outcome (uploaded, skipped, incomplete or failed), fileName, bytes, eventTitle and albumTitle.",
			parameters: expect.objectContaining({
				type: 'object',
				properties: {
					linkId: LINK_ID,
					// optional: an agent may leave it out for the event itself
					albumId: {
						...argument('The id of an album of that event, or empty for none'),
						default: '',
					},
					fileUrl: argument('The public http(s) address of the photo or video to upload'),
				},
				required: ['linkId', 'fileUrl'],
			}),
		});
		expect(byName.List_events.description).toBe(
			"Lists the user's EventPics events with their albums: each event's linkId and title, each album's id and title. Takes no input; use it to find the linkId and album id that the other EventPics tools need.",
		);
		expect(byName.List_events.parameters.properties).toEqual({});
		expect(byName.Get_an_event.description).toMatch(/^Gets one EventPics event with its albums/);
		expect(byName.Get_an_event.parameters.properties).toEqual({ linkId: LINK_ID });
		expect(byName.List_albums.description).toMatch(/^Lists the albums of one EventPics event/);
		expect(byName.List_albums.parameters.properties).toEqual({ linkId: LINK_ID });
	});

	it('a user who picks the event and album in the tool leaves only the address to the agent', async () => {
		const { offered } = await agent({
			Upload: {
				resource: 'photo',
				operation: 'upload',
				event: { __rl: true, mode: 'list', value: 'wedding-anna-ben' },
				album: { __rl: true, mode: 'list', value: 'booth' },
			},
		});
		expect(Object.keys(offered[0].parameters.properties)).toEqual(['fileUrl']);
	});

	it('the agent lists the events, then uploads a photo from an address into the album it chose', async () => {
		const { answers } = await agent(
			{
				'List events': { resource: 'event', operation: 'getAll' },
				// the test's file host is on 127.0.0.1, which the tool refuses unless allowed
				Upload: {
					resource: 'photo',
					operation: 'upload',
					options: { allowInternalAddresses: true },
				},
			},
			[
				{ tool: 'List_events', args: {} },
				{
					tool: 'Upload',
					args: {
						linkId: 'wedding-anna-ben',
						albumId: 'ceremony',
						fileUrl: `${filesUrl}/cake.jpg`,
					},
				},
			],
		);
		const [events, upload] = answers;
		expect(events.items.map((event) => event.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
		]);
		expect(upload.error).toBeUndefined();
		expect(upload.items).toEqual([
			// the compact answer (Simplify, on by default): the fields an agent acts on
			{
				outcome: 'uploaded',
				fileName: 'cake.jpg',
				eventTitle: "Anna & Ben's Wedding",
				albumTitle: 'Ceremony',
				takenAt: expect.any(String),
				bytes: expect.any(Number),
				warnings: [],
			},
		]);
		expect(emu.uploads.map((u) => [u.linkId, u.albumId, u.fileName])).toEqual([
			['wedding-anna-ben', 'ceremony', 'cake.jpg'],
		]);
	});

	it('an unknown event answers the agent with the events it can use', async () => {
		const { answers } = await agent({ Upload: { resource: 'photo', operation: 'upload' } }, [
			{
				tool: 'Upload',
				args: { linkId: 'birthday', albumId: '', fileUrl: `${filesUrl}/cake.jpg` },
			},
		]);
		expect(answers[0].items).toEqual([
			{
				error:
					'The event "birthday" is not one of this API key\'s events; its events are "Anna & Ben\'s Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening). Pass one of the linkIds listed (in brackets) as linkId.',
			},
		]);
		expect(emu.uploads).toHaveLength(0);
	});

	/** One call of the upload tool as added (the file host is on 127.0.0.1, so allowed). */
	async function uploadCall(args: IDataObject, parameters: INodeParameters = {}) {
		const { answers } = await agent(
			{
				Upload: {
					resource: 'photo',
					operation: 'upload',
					options: { allowInternalAddresses: true },
					...parameters,
				},
			},
			[{ tool: 'Upload', args: { fileUrl: `${filesUrl}/cake.jpg`, ...args } }],
		);
		return answers[0].items;
	}

	// issue 30: a model has no "Album" field; it is told the argument to pass
	it('an album of another event answers the agent with the albumId to pass', async () => {
		const items = await uploadCall({ linkId: 'summer-party-2026', albumId: 'booth' });
		expect(items).toEqual([
			{
				error:
					'The album "Photo booth" (booth) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance). Pass one of the album ids listed (in brackets) as albumId, or an empty albumId to upload into the event itself.',
			},
		]);
		expect(emu.uploads).toHaveLength(0);
	});

	it('an album for an event without albums tells the agent to pass an empty albumId', async () => {
		const items = await uploadCall({ linkId: 'office-opening', albumId: 'booth' });
		expect(items).toEqual([
			{
				error:
					'The album "Photo booth" (booth) is not an album of "Office Opening" (office-opening); it has no albums. Pass an empty albumId: this event has no albums, so the file goes into the event itself.',
			},
		]);
	});

	it('an empty linkId tells the agent what to pass', async () => {
		const items = await uploadCall({ linkId: '', albumId: '' });
		expect(items).toEqual([
			{ error: "No event is selected. Pass the linkId of one of the user's events as linkId." },
		]);
	});

	it('names the argument the field asks the model for (the key of its $fromAI)', async () => {
		const items = await uploadCall(
			{ eventId: 'summer-party-2026', album: 'booth' },
			{
				event: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('eventId', 'The event', 'string') }}",
				},
				album: { __rl: true, mode: 'id', value: "={{ $fromAI('album', 'The album', 'string') }}" },
			},
		);
		expect(items[0].error).toMatch(
			/\. Pass one of the album ids listed \(in brackets\) as album, or an empty album to upload into the event itself\.$/,
		);
	});

	it('an album the user fixed in the tool keeps the words for the field (the model cannot change it)', async () => {
		const items = await uploadCall(
			{},
			{
				event: { __rl: true, mode: 'list', value: 'summer-party-2026' },
				album: { __rl: true, mode: 'list', value: 'booth', cachedResultName: 'Photo booth' },
			},
		);
		expect(items).toEqual([
			{
				error:
					'The album "Photo booth" (booth) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance)',
			},
		]);
	});
});
