import type { TriggerEmulator } from './triggerFixture.cts';
import {
	createPoller,
	emittedJson,
	fetchTestEvent,
	newAlbumParameters,
	TRIGGER_TYPE,
	triggerTypes,
} from './triggerFixture.cts';
import { credentialTypes, useEmulator, credentialTest } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const SEEDED = ['wedding-anna-ben', 'summer-party-2026', 'office-opening'];
const newEvent = { triggerOn: 'newEvent' };
const linkIds = (json: Array<Record<string, unknown>>) => json.map((item) => item.linkId);

const emu = useEmulator<TriggerEmulator>();

describe('EventPics Trigger: New Event, ticked by n8n-core against the emulator', () => {
	it('records what exists at activation, then fires once per new event, shaped like Event > Get', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		const activation = await poller.activate();
		expect(activation.emitted).toBeNull();
		expect((await poller.poll()).emitted).toBeNull();
		emu.addEvent({
			linkId: 'gala-2027',
			title: 'Gala 2027',
			albums: [{ id: 'red', title: 'Red carpet' }],
		});
		const tick = await poller.poll();
		expect(tick.error).toBeUndefined();
		expect(tick.emitted).toHaveLength(1);
		expect(emittedJson(tick)).toEqual([
			{
				linkId: 'gala-2027',
				title: 'Gala 2027',
				albumCount: 1,
				albums: [{ id: 'red', title: 'Red carpet' }],
			},
		]);
		expect((await poller.poll()).emitted).toBeNull();
		// one GET per tick, with the key as n8n's credential sends it
		const calls = emu.requests.filter((request) => request.server === 'api');
		expect(calls).toHaveLength(4);
		expect(calls.every((call) => call.url === '/geteventsandalbums')).toBe(true);
		expect(calls.every((call) => call.headers.authorization === `Bearer ${emu.apiKey}`)).toBe(true);
	});

	it('gives one item per new event in one tick, in the order EventPics lists them (New Event is the default)', async () => {
		const poller = await createPoller({ emu });
		await poller.activate();
		for (const linkId of ['c-event', 'a-event', 'b-event']) emu.addEvent({ linkId, title: linkId });
		const tick = await poller.poll();
		expect(linkIds(emittedJson(tick))).toEqual(['c-event', 'a-event', 'b-event']);
		expect((await poller.poll()).emitted).toBeNull();
	});

	it('ignores deleted events; one deleted and created again is not reported twice', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		emu.removeEvent('summer-party-2026');
		const quiet = await poller.poll();
		expect(quiet.emitted).toBeNull();
		expect(quiet.error).toBeUndefined();
		// back after a poll saw it gone: the trigger remembers it, as its notice promises ("nothing twice")
		emu.addEvent({ linkId: 'summer-party-2026', title: 'Summer Party 2026 (again)' });
		expect((await poller.poll()).emitted).toBeNull();
		// deleted and created again between two polls: the trigger never saw it gone
		emu.removeEvent('office-opening');
		emu.addEvent({ linkId: 'office-opening', title: 'Office Opening' });
		expect((await poller.poll()).emitted).toBeNull();
		// a really new one still fires
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['gala-2027']);
	});

	it('150 new events: 100 at one poll, 50 at the next; 100 removed and back: none again', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		const ids = Array.from({ length: 150 }, (_, i) => `batch-${String(i).padStart(3, '0')}`);
		for (const linkId of ids) emu.addEvent({ linkId, title: linkId });
		const first = linkIds(emittedJson(await poller.poll()));
		const second = linkIds(emittedJson(await poller.poll()));
		expect([first.length, second.length]).toEqual([100, 50]);
		expect(new Set([...first, ...second])).toEqual(new Set(ids));
		for (const linkId of ids.slice(0, 100)) emu.removeEvent(linkId);
		expect((await poller.poll()).emitted).toBeNull();
		for (const linkId of ids.slice(0, 100)) emu.addEvent({ linkId, title: linkId });
		expect((await poller.poll()).emitted).toBeNull();
	});

	it('an empty account: nothing at activation, then its first event fires', async () => {
		for (const linkId of SEEDED) emu.removeEvent(linkId);
		const poller = await createPoller({ emu, parameters: newEvent });
		expect((await poller.activate()).emitted).toBeNull();
		expect((await poller.poll()).emitted).toBeNull();
		emu.addEvent({ linkId: 'first', title: 'First event' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['first']);
	});

	it('an answer that lost every event forgets nothing: when they come back, none is new', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		const before = poller.current();
		for (const linkId of SEEDED) emu.removeEvent(linkId);
		expect((await poller.poll()).emitted).toBeNull();
		expect(poller.current()).toEqual(before);
		emu.reset();
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['gala-2027']);
	});

	it('tests the credential with the main node’s method (testedBy), also when it is the only node type', async () => {
		const trigger = triggerTypes[TRIGGER_TYPE];
		expect(trigger.description.credentials).toEqual([
			{ name: 'eventPicsApi', required: true, testedBy: 'eventPicsApiTest' },
		]);
		expect(trigger.methods.credentialTest.eventPicsApiTest).toBe(
			triggerTypes['n8n-nodes-eventpics.eventPics'].methods.credentialTest.eventPicsApiTest,
		);
		const result = await engine.testCredential({
			credentialType: 'eventPicsApi',
			credentialTypes,
			nodeTypes: { [TRIGGER_TYPE]: trigger },
			credentials: { apiKey: emu.apiKey, baseUrl: emu.baseUrl },
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('the list search of its Event field is the main node’s', async () => {
		const result = await engine.callListSearch({
			nodeType: TRIGGER_TYPE,
			nodeTypes: triggerTypes,
			methodName: 'searchEvents',
			credentialTypes,
			credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
			parameters: newAlbumParameters(''),
			filter: 'party',
		});
		expect(result).toEqual({
			results: [{ name: 'Summer Party 2026', value: 'summer-party-2026' }],
		});
	});
});

describe('EventPics Trigger: New Album', () => {
	it('of all events: a new album anywhere, and the albums of a new event, shaped like Album > Get Many', async () => {
		const poller = await createPoller({ emu, parameters: newAlbumParameters() });
		expect((await poller.activate()).emitted).toBeNull();
		emu.addAlbum('office-opening', { id: 'hall', title: 'Hall' });
		emu.addAlbum('summer-party-2026', { albumId: 'sp-bar', title: 'Bar' });
		emu.addEvent({
			linkId: 'gala-2027',
			title: 'Gala 2027',
			albums: [
				{ id: 'red', title: 'Red carpet' },
				{ id: 'booth', title: 'Booth' },
			],
		});
		expect(emittedJson(await poller.poll())).toEqual([
			{
				id: 'sp-bar',
				title: 'Bar',
				event: { linkId: 'summer-party-2026', title: 'Summer Party 2026' },
			},
			{ id: 'hall', title: 'Hall', event: { linkId: 'office-opening', title: 'Office Opening' } },
			{ id: 'red', title: 'Red carpet', event: { linkId: 'gala-2027', title: 'Gala 2027' } },
			// the same album id in another event is another album
			{ id: 'booth', title: 'Booth', event: { linkId: 'gala-2027', title: 'Gala 2027' } },
		]);
		// a new event without albums is no new album
		emu.addEvent({ linkId: 'plain', title: 'Plain' });
		emu.removeAlbum('wedding-anna-ben', 'ceremony');
		expect((await poller.poll()).emitted).toBeNull();
	});

	it('of one event: only its albums; the others’ are not watched', async () => {
		const poller = await createPoller({ emu, parameters: newAlbumParameters('wedding-anna-ben') });
		await poller.activate();
		emu.addAlbum('summer-party-2026', { id: 'elsewhere', title: 'Elsewhere' });
		expect((await poller.poll()).emitted).toBeNull();
		emu.addAlbum('wedding-anna-ben', { id: 'dinner', title: 'Dinner' });
		expect(emittedJson(await poller.poll())).toEqual([
			{
				id: 'dinner',
				title: 'Dinner',
				event: { linkId: 'wedding-anna-ben', title: "Anna & Ben's Wedding" },
			},
		]);
	});

	it('of one event that was deleted: an error naming the event and the key’s events; what it remembers stays', async () => {
		const poller = await createPoller({ emu, parameters: newAlbumParameters('summer-party-2026') });
		await poller.activate();
		const before = poller.current();
		emu.removeEvent('summer-party-2026');
		const tick = await poller.poll();
		expect(tick.emitted).toBeNull();
		expect(tick.error).toMatchObject({
			name: 'NodeOperationError',
			message:
				'The event "summer-party-2026" is not one of this API key\'s events; its events are "Anna & Ben\'s Wedding" (wedding-anna-ben), "Office Opening" (office-opening)',
			description:
				'The trigger watches the albums of this event. Pick another event in the "Event" field, or set "Albums Of" to "All Events".',
		});
		expect(poller.current()).toEqual(before);
	});

	it('a Trigger On value that is not one of its choices (a hand-edited workflow) is named', async () => {
		const poller = await createPoller({ emu, parameters: { triggerOn: 'newPhoto' } });
		await expect(poller.activate()).rejects.toMatchObject({
			message: '"Trigger On" is "newPhoto", which is not one of its choices',
			description: 'Choose "New Event" or "New Album" in "Trigger On".',
		});
	});

	it('of one event, none chosen: says which field to fill', async () => {
		const poller = await createPoller({ emu, parameters: newAlbumParameters('  ') });
		await expect(poller.activate()).rejects.toMatchObject({
			message: 'No event is selected',
			description:
				'Choose the event whose new albums start the workflow in the "Event" field, or set "Albums Of" to "All Events".',
		});
	});
});

describe('EventPics Trigger: Fetch Test Event (manual mode, run by the engine as the editor runs it)', () => {
	it('returns the newest event: the last in EventPics’ list', async () => {
		const seeded = await fetchTestEvent({ emu, parameters: newEvent });
		expect(seeded.status).toBe('success');
		expect(seeded.items.map((item) => item.json)).toEqual([
			{ linkId: 'office-opening', title: 'Office Opening', albumCount: 0, albums: [] },
		]);
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		const added = await fetchTestEvent({ emu, parameters: newEvent });
		expect(added.items.map((item) => item.json.linkId)).toEqual(['gala-2027']);
	});

	it('returns the newest album: the last album of the last event with albums, or of the chosen event', async () => {
		const all = await fetchTestEvent({ emu, parameters: newAlbumParameters() });
		expect(all.items.map((item) => item.json)).toEqual([
			{
				id: 'sp-dance',
				title: 'Dance floor',
				event: { linkId: 'summer-party-2026', title: 'Summer Party 2026' },
			},
		]);
		const one = await fetchTestEvent({ emu, parameters: newAlbumParameters('wedding-anna-ben') });
		expect(one.items.map((item) => item.json.id)).toEqual(['ceremony']);
	});

	it('neither reads nor changes what the active trigger remembers', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		const remembered = poller.saved();
		const fetched = await fetchTestEvent({ emu, parameters: newEvent, staticData: remembered });
		expect(fetched.items.map((item) => item.json.linkId)).toEqual(['office-opening']);
		expect(fetched.staticData).toEqual(remembered);
	});

	it('with nothing to show: an error that says what to create', async () => {
		const none = await fetchTestEvent({ emu, parameters: newAlbumParameters('office-opening') });
		expect(none.status).toBe('error');
		expect(none.nodeError).toMatchObject({
			message: 'The event "Office Opening" (office-opening) has no albums yet',
			description: 'Create an album in the EventPics app, then fetch a test event again.',
		});
		emu.removeEvent('wedding-anna-ben');
		emu.removeEvent('summer-party-2026');
		const noAlbums = await fetchTestEvent({ emu, parameters: newAlbumParameters() });
		expect(noAlbums.nodeError).toMatchObject({
			message: 'EventPics lists no albums for this API key yet',
			description: 'Create an album in the EventPics app, then fetch a test event again.',
		});
		emu.removeEvent('office-opening');
		const empty = await fetchTestEvent({ emu, parameters: newEvent });
		expect(empty.nodeError).toMatchObject({
			message: 'EventPics lists no events for this API key yet',
			description: 'Create an event in the EventPics app, then fetch a test event again.',
		});
	});
});
