import { startEmulator } from './index';
import { SEED } from './seed';
import { call, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const control = (path: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown) =>
	call(`${emu.baseUrl}/__control/${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
const listed = async (apiKey = emu.apiKey) => {
	const answer = await call(`${emu.baseUrl}/geteventsandalbums`, {
		headers: { authorization: `Bearer ${apiKey}` },
	});
	expect(answer.status).toBe(200);
	return JSON.parse(answer.text).events as Array<{
		linkId: string;
		title: string;
		albums?: Array<{ id?: string; albumId?: string; title: string }>;
	}>;
};
const linkIds = async (apiKey?: string) => (await listed(apiKey)).map((event) => event.linkId);

describe('events and albums that change while the emulator runs', () => {
	test('an added event is listed at the end, with its albums in either id spelling', async () => {
		const event = emu.addEvent({
			linkId: 'gala-2027',
			title: 'Gala 2027',
			albums: [
				{ id: 'red', title: 'Red carpet' },
				{ albumId: 'bar', title: 'Bar' },
			],
		});
		expect(event).toEqual({
			linkId: 'gala-2027',
			title: 'Gala 2027',
			albums: [
				{ id: 'red', title: 'Red carpet' },
				{ albumId: 'bar', title: 'Bar' },
			],
		});
		const events = await listed();
		expect(events.map((e) => e.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
			'gala-2027',
		]);
		expect(events[3]).toEqual(event);
		// uploads go to it like to a seeded event
		const url = await call(`${emu.baseUrl}/getuploadurl`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ apiKey: emu.apiKey, linkId: 'gala-2027', albumId: 'bar', fileName: 'a.jpg' }),
		});
		expect(url.status).toBe(200);
	});

	test('an event added without albums has no albums field, like the seeded office-opening', async () => {
		emu.addEvent({ linkId: 'plain', title: 'Plain' });
		expect((await listed()).at(-1)).toEqual({ linkId: 'plain', title: 'Plain' });
	});

	test('removed events and albums are gone from the list; the other key never sees the demo key’s', async () => {
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		emu.removeEvent('summer-party-2026');
		emu.addAlbum('office-opening', { id: 'hall', title: 'Hall' });
		emu.addAlbum('wedding-anna-ben', { albumId: 'dance', title: 'Dance' });
		emu.removeAlbum('wedding-anna-ben', 'booth');
		const events = await listed();
		expect(events.map((e) => e.linkId)).toEqual(['wedding-anna-ben', 'office-opening', 'gala-2027']);
		expect(events[0].albums).toEqual([
			{ id: 'ceremony', title: 'Ceremony' },
			{ albumId: 'dance', title: 'Dance' },
		]);
		expect(events[1].albums).toEqual([{ id: 'hall', title: 'Hall' }]);
		expect(await linkIds(emu.otherApiKey)).toEqual(['other-event']);
		emu.addEvent({ linkId: 'theirs', title: 'Theirs', apiKey: emu.otherApiKey });
		expect(await linkIds(emu.otherApiKey)).toEqual(['other-event', 'theirs']);
		expect(await linkIds()).not.toContain('theirs');
	});

	test('an account can be emptied, and reset() brings the seed back without touching it', async () => {
		for (const linkId of await linkIds()) emu.removeEvent(linkId);
		expect(await listed()).toEqual([]);
		emu.reset();
		expect(await linkIds()).toEqual(['wedding-anna-ben', 'summer-party-2026', 'office-opening']);
		// the seed itself was never changed
		expect(SEED.accounts[0].events.map((e) => e.linkId)).toEqual(await linkIds());
		expect(emu.events[0].events).toEqual(SEED.accounts[0].events);
	});

	test('refuses duplicates, unknown events and albums, bad fields and unknown keys with a message', () => {
		expect(() => emu.addEvent({ linkId: 'wedding-anna-ben', title: 'Again' })).toThrow(
			'The account already has an event "wedding-anna-ben"',
		);
		expect(() => emu.addEvent({ linkId: '', title: 'x' })).toThrow('linkId must be a non-empty string');
		expect(() => emu.addEvent({ linkId: 'x'.repeat(201), title: 'x' })).toThrow('at most 200');
		expect(() => emu.addEvent({ linkId: 'a', title: 'A', apiKey: 'nope' })).toThrow(
			'No account has this apiKey',
		);
		expect(() => emu.removeEvent('nope')).toThrow('The account has no event "nope"');
		expect(() => emu.addAlbum('wedding-anna-ben', { id: 'booth', title: 'Twice' })).toThrow(
			'already has an album "booth"',
		);
		expect(() => emu.removeAlbum('wedding-anna-ben', 'nope')).toThrow('has no album "nope"');
		expect(() => emu.addAlbum('nope', { id: 'a', title: 'A' })).toThrow('has no event "nope"');
	});
});

describe('the events control API (for other processes)', () => {
	test('POST adds, GET shows every account without keys, DELETE removes; albums likewise', async () => {
		const added = await control('events', 'POST', { linkId: 'gala 2027/ü', title: 'Gala' });
		expect(added.status).toBe(200);
		expect(JSON.parse(added.text)).toEqual({ event: { linkId: 'gala 2027/ü', title: 'Gala' } });
		const path = `events/${encodeURIComponent('gala 2027/ü')}`;
		const album = await control(`${path}/albums`, 'POST', { albumId: 'a1', title: 'A1' });
		expect(JSON.parse(album.text)).toEqual({ album: { albumId: 'a1', title: 'A1' } });
		const all = await control('events');
		expect(all.text).not.toContain(emu.apiKey);
		expect(JSON.parse(all.text).accounts[0].events.at(-1)).toEqual({
			linkId: 'gala 2027/ü',
			title: 'Gala',
			albums: [{ albumId: 'a1', title: 'A1' }],
		});
		expect((await control(`${path}/albums/a1`, 'DELETE')).status).toBe(200);
		expect((await listed()).at(-1)?.albums).toEqual([]);
		expect((await control(path, 'DELETE')).status).toBe(200);
		expect(await linkIds()).not.toContain('gala 2027/ü');
		const other = await control(
			`events/other-event?apiKey=${encodeURIComponent(emu.otherApiKey)}`,
			'DELETE',
		);
		expect(other.status).toBe(200);
		expect(await listed(emu.otherApiKey)).toEqual([]);
	});

	test('errors answer 400 INVALID_CONTROL_REQUEST with the reason; unknown routes 404', async () => {
		const duplicate = await control('events', 'POST', { linkId: 'office-opening', title: 'x' });
		expect(duplicate.status).toBe(400);
		expect(JSON.parse(duplicate.text)).toMatchObject({
			code: 'INVALID_CONTROL_REQUEST',
			message: 'The account already has an event "office-opening"',
		});
		expect((await control('events/nope', 'DELETE')).status).toBe(400);
		expect((await control('events/%E0%A4%A', 'DELETE')).status).toBe(400);
		expect((await control('events/a/b/c/d', 'POST', {})).status).toBe(404);
		expect(await linkIds()).toEqual(['wedding-anna-ben', 'summer-party-2026', 'office-opening']);
	});
});
