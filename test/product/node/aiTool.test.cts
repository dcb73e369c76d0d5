import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { serve, useFileHost } from './fileHost.cts';
import { NODE_TYPE, nodeTypes, runAgent, useEmulator } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const PHOTO = join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');

/**
 * "EventPics Tool" as an AI agent meets it: n8n's tool variant of the node, connected to an agent
 * (see test/tools/engine/ai-tool.js). The agent gets the tools from n8n-core's getInputConnectionData
 * and createNodeAsTool; a call goes back through n8n-core's engine as AI Agent v3's do.
 */
describe('EventPics Tool: what an AI agent is offered, as added', () => {
	const emu = useEmulator();
	const files = useFileHost();
	beforeAll(() => files.route('/cake.jpg', serve.file(readFileSync(PHOTO), 'image/jpeg')));

	const argument = (description: string) => ({ type: 'string', description });
	const LINK_ID = argument('The linkId of the EventPics event, from the tool that lists events');
	const upload = { resource: 'photo', operation: 'upload' };

	it('has a description of its own for each operation (so n8n adds no "Set Automatically")', () => {
		const names = engine
			.toolVariant(nodeTypes[NODE_TYPE])
			.description.properties.map((property: { name: string }) => property.name);
		expect(names).toContain('toolDescription');
		expect(names).not.toContain('descriptionType');
	});

	it('offers each operation, as added, with what it does and what to pass', async () => {
		const { offered } = await runAgent(emu, {
			'Upload a photo': upload,
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
		const event = { __rl: true, mode: 'list', value: 'wedding-anna-ben' };
		const album = { __rl: true, mode: 'list', value: 'booth' };
		const { offered } = await runAgent(emu, { Upload: { ...upload, event, album } });
		expect(Object.keys(offered[0].parameters.properties)).toEqual(['fileUrl']);
	});

	it('the agent lists the events, then uploads a photo from an address into the album it chose', async () => {
		const { answers } = await runAgent(
			emu,
			{
				'List events': { resource: 'event', operation: 'getAll' },
				// the test's file host is on 127.0.0.1, which the tool refuses unless allowed
				Upload: { ...upload, options: { allowInternalAddresses: true } },
			},
			[
				{ tool: 'List_events', args: {} },
				{
					tool: 'Upload',
					args: {
						linkId: 'wedding-anna-ben',
						albumId: 'ceremony',
						fileUrl: `${files.url}/cake.jpg`,
					},
				},
			],
		);
		const [events, uploaded] = answers;
		expect(events.items.map((event) => event.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
		]);
		expect(events.items[1].albums).toEqual([
			{ id: 'sp-booth', title: 'Booth' },
			{ id: 'sp-dance', title: 'Dance floor' },
		]);
		expect(uploaded.error).toBeUndefined();
		expect(uploaded.items).toEqual([
			// the compact answer (Simplify, on by default): the fields an agent acts on
			{
				outcome: 'uploaded',
				fileName: 'cake.jpg',
				eventTitle: "Anna & Ben's Wedding",
				albumTitle: 'Ceremony',
				takenAt: expect.any(String),
				bytes: readFileSync(PHOTO).length,
				warnings: [],
			},
		]);
		expect(emu.uploads.map((u) => [u.linkId, u.albumId, u.fileName, u.contentType])).toEqual([
			['wedding-anna-ben', 'ceremony', 'cake.jpg', 'image/jpeg'],
		]);
	});

	/** One call of the upload tool as added (the file host is on 127.0.0.1, so allowed). */
	async function uploadCall(args: Record<string, string>, parameters: INodeParameters = {}) {
		const tool = { ...upload, options: { allowInternalAddresses: true }, ...parameters };
		const call = { tool: 'Upload', args: { fileUrl: `${files.url}/cake.jpg`, ...args } };
		return (await runAgent(emu, { Upload: tool }, [call])).answers[0].items;
	}

	// issue 30: a model has no "Album" field; it is told the argument to pass
	it.each([
		[
			'an unknown event answers the agent with the events it can use',
			{ linkId: 'birthday', albumId: '' },
			'The event "birthday" is not one of this API key\'s events; its events are "Anna & Ben\'s Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening). Pass one of the linkIds listed (in brackets) as linkId.',
		],
		[
			'an album of another event answers the agent with the albumId to pass',
			{ linkId: 'summer-party-2026', albumId: 'booth' },
			'The album "Photo booth" (booth) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance). Pass one of the album ids listed (in brackets) as albumId, or an empty albumId to upload into the event itself.',
		],
		[
			'an album for an event without albums tells the agent to pass an empty albumId',
			{ linkId: 'office-opening', albumId: 'booth' },
			'The album "Photo booth" (booth) is not an album of "Office Opening" (office-opening); it has no albums. Pass an empty albumId: this event has no albums, so the file goes into the event itself.',
		],
		[
			'an empty linkId tells the agent what to pass',
			{ linkId: '', albumId: '' },
			"No event is selected. Pass the linkId of one of the user's events as linkId.",
		],
	])('%s', async (_name, args, error) => {
		expect(await uploadCall(args)).toEqual([{ error }]);
		expect(emu.uploads).toHaveLength(0);
	});

	it('names the argument the field asks the model for (the key of its $fromAI)', async () => {
		const fromAI = (key: string) => `={{ $fromAI('${key}', 'The ${key}', 'string') }}`;
		const items = await uploadCall(
			{ eventId: 'summer-party-2026', album: 'booth' },
			{
				event: { __rl: true, mode: 'id', value: fromAI('eventId') },
				album: { __rl: true, mode: 'id', value: fromAI('album') },
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
