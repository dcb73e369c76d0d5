import { startEmulator } from './index';
import { SEED, DEMO_API_KEY, OTHER_API_KEY } from './seed';
import { call, askUploadUrl, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const list = (headers: Record<string, string>) =>
	call(`${emu.baseUrl}/geteventsandalbums`, { headers });

function expectErrorObject(text: string, code: string, message: string | RegExp) {
	const body = JSON.parse(text);
	expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message']);
	expect(body.code).toBe(code);
	if (typeof message === 'string') expect(body.message).toBe(message);
	else expect(body.message).toMatch(message);
	expect(body.details).toBeNull();
	expect(text).not.toContain(DEMO_API_KEY);
	expect(text).not.toContain(OTHER_API_KEY);
}

describe('GET /geteventsandalbums', () => {
	test('Bearer key: the seeded events of that key, both album spellings and an event without albums', async () => {
		const res = await list({ authorization: `Bearer ${emu.apiKey}` });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.headers['cache-control']).toBe('no-store');
		const { events } = JSON.parse(res.text);
		expect(events).toEqual(SEED.accounts[0].events);
		expect(events[0].albums[0]).toEqual({ id: 'booth', title: 'Photo booth' });
		expect(events[1].albums[0]).toEqual({ albumId: 'sp-booth', title: 'Booth' });
		expect(events[1].albums[0]).not.toHaveProperty('id');
		expect(events[2]).not.toHaveProperty('albums');
	});

	test('X-API-Key header works as the alternative', async () => {
		const res = await list({ 'x-api-key': emu.apiKey });
		expect(res.status).toBe(200);
		expect(JSON.parse(res.text).events.map((e: { linkId: string }) => e.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
		]);
	});

	test("the other key sees only its own event, never the demo account's", async () => {
		const res = await list({ authorization: `Bearer ${emu.otherApiKey}` });
		expect(res.status).toBe(200);
		expect(JSON.parse(res.text)).toEqual({
			events: [
				{
					linkId: 'other-event',
					title: "Someone Else's Event",
					albums: [{ id: 'x1', title: 'X' }],
				},
			],
		});
	});

	test.each([
		['no key at all', {}, /^Missing API key/],
		['an unknown Bearer key', { authorization: 'Bearer ep_wrong' }, 'Invalid API key.'],
		['an unknown X-API-Key', { 'x-api-key': 'ep_wrong' }, 'Invalid API key.'],
		['the key without the Bearer scheme', { authorization: DEMO_API_KEY }, /Bearer <API key>/],
		[
			'Basic auth',
			{ authorization: `Basic ${Buffer.from(`${DEMO_API_KEY}:`).toString('base64')}` },
			/Bearer <API key>/,
		],
		['the key as a query parameter only', {}, /^Missing API key/],
	])('401 with the Error object for %s', async (_name, headers, message) => {
		const res = await call(`${emu.baseUrl}/geteventsandalbums?apiKey=${DEMO_API_KEY}`, { headers });
		expect(res.status).toBe(401);
		expectErrorObject(res.text, 'UNAUTHORIZED', message);
	});

	test('other methods are refused with 405', async () => {
		const res = await call(`${emu.baseUrl}/geteventsandalbums`, {
			method: 'POST',
			headers: { authorization: `Bearer ${emu.apiKey}` },
		});
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('GET');
	});
});

describe('POST /getuploadurl', () => {
	const good = () => ({
		apiKey: emu.apiKey,
		linkId: 'wedding-anna-ben',
		fileName: 'photo.jpg',
		albumId: 'booth',
		takenAt: 1767225600000,
	});

	test('answers { uploadUrl } pointing at the object storage (another port), signed, valid 300 s', async () => {
		const res = await askUploadUrl(emu, good());
		expect(res.status).toBe(200);
		const body = JSON.parse(res.text);
		expect(Object.keys(body)).toEqual(['uploadUrl']);
		const url = new URL(body.uploadUrl);
		expect(`${url.protocol}//${url.host}`).toBe(emu.storageUrl);
		expect(emu.storageUrl).not.toBe(emu.baseUrl);
		expect(url.searchParams.get('X-EP-Expires')).toBe('300');
		expect(url.searchParams.get('X-EP-Signature')).toMatch(/^[0-9a-f]{64}$/);
		expect(url.pathname).toMatch(
			/^\/eventpics-uploads\/wedding-anna-ben\/[0-9a-f]{24}\/photo\.jpg$/,
		);
	});

	test('accepts every documented variant: no album, albumId spelling, no takenAt, charset parameter', async () => {
		const variants: Record<string, unknown>[] = [
			{ apiKey: emu.apiKey, linkId: 'office-opening', fileName: 'a.png' },
			{ apiKey: emu.apiKey, linkId: 'summer-party-2026', fileName: 'b.jpg', albumId: 'sp-dance' },
			{
				apiKey: emu.otherApiKey,
				linkId: 'other-event',
				fileName: 'c.mp4',
				albumId: 'x1',
				takenAt: 0,
			},
		];
		for (const v of variants) expect((await askUploadUrl(emu, v)).status).toBe(200);
		const res = await askUploadUrl(emu, good(), {
			'content-type': 'application/json; charset=utf-8',
		});
		expect(res.status).toBe(200);
	});

	test.each([
		['text/plain', 'text/plain'],
		['form encoding', 'application/x-www-form-urlencoded'],
		['a JSON-like type', 'application/json-patch+json'],
		['a non-UTF-8 charset', 'application/json; charset=latin1'],
	])('400 when the Content-Type is %s', async (_n, type) => {
		const res = await askUploadUrl(
			emu,
			{ apiKey: emu.apiKey, linkId: 'wedding-anna-ben', fileName: 'photo.jpg' },
			{ 'content-type': type },
		);
		expect(res.status).toBe(400);
		expectErrorObject(res.text, 'UNSUPPORTED_CONTENT_TYPE', /Content-Type: application\/json/);
	});

	test('400 when no Content-Type is sent', async () => {
		const res = await call(`${emu.baseUrl}/getuploadurl`, {
			method: 'POST',
			body: JSON.stringify(good()),
		});
		expect(res.status).toBe(400);
		expectErrorObject(res.text, 'UNSUPPORTED_CONTENT_TYPE', /application\/json/);
	});

	test.each([
		['not JSON', '{apiKey:', 'INVALID_JSON', 'The request body is not valid JSON.'],
		['empty', '', 'INVALID_JSON', 'The request body is not valid JSON.'],
		['a JSON array', '[]', 'INVALID_BODY', 'The request body must be a JSON object.'],
		['JSON null', 'null', 'INVALID_BODY', 'The request body must be a JSON object.'],
	])('400 when the body is %s', async (_n, body, code, message) => {
		const res = await askUploadUrl(emu, body);
		expect(res.status).toBe(400);
		expectErrorObject(res.text, code, message);
	});

	test.each([
		['apiKey is missing', { apiKey: undefined }, /^Missing API key: send it as "apiKey"/],
		['apiKey is unknown', { apiKey: 'ep_wrong' }, 'Invalid API key.'],
		['apiKey is not a string', { apiKey: 12345 }, 'Invalid API key.'],
	])('401 when %s', async (_n, change, message) => {
		const res = await askUploadUrl(emu, { ...good(), ...change });
		expect(res.status).toBe(401);
		expectErrorObject(res.text, 'UNAUTHORIZED', message);
	});

	test('401 when the key is only in a header, not in the body', async () => {
		const { apiKey: _k, ...rest } = good();
		const variants: Record<string, string>[] = [
			{ authorization: `Bearer ${emu.apiKey}` },
			{ 'x-api-key': emu.apiKey },
		];
		for (const headers of variants) {
			const res = await askUploadUrl(emu, rest, headers);
			expect(res.status).toBe(401);
			expectErrorObject(res.text, 'UNAUTHORIZED', /"apiKey" in the JSON body/);
		}
	});

	test.each([
		['linkId is missing', { linkId: undefined }, 'MISSING_FIELD', 'linkId is required.'],
		['linkId is null', { linkId: null }, 'MISSING_FIELD', 'linkId is required.'],
		['linkId is empty', { linkId: '' }, 'INVALID_FIELD', 'linkId must be a non-empty string.'],
		['linkId is a number', { linkId: 7 }, 'INVALID_FIELD', 'linkId must be a non-empty string.'],
		['fileName is missing', { fileName: undefined }, 'MISSING_FIELD', 'fileName is required.'],
		[
			'fileName is empty',
			{ fileName: '' },
			'INVALID_FIELD',
			'fileName must be a non-empty string.',
		],
		[
			'fileName is an object',
			{ fileName: { name: 'a.jpg' } },
			'INVALID_FIELD',
			'fileName must be a non-empty string.',
		],
		[
			'takenAt is a string',
			{ takenAt: '1767225600000' },
			'INVALID_FIELD',
			'takenAt must be an integer (Unix time in milliseconds).',
		],
		[
			'takenAt has a fraction',
			{ takenAt: 1767225600000.5 },
			'INVALID_FIELD',
			'takenAt must be an integer (Unix time in milliseconds).',
		],
		[
			'takenAt is null',
			{ takenAt: null },
			'INVALID_FIELD',
			'takenAt must be an integer (Unix time in milliseconds).',
		],
		[
			'takenAt is an ISO date',
			{ takenAt: '2026-01-01T00:00:00Z' },
			'INVALID_FIELD',
			'takenAt must be an integer (Unix time in milliseconds).',
		],
		['albumId is empty', { albumId: '' }, 'INVALID_FIELD', 'albumId must be a non-empty string.'],
		['albumId is null', { albumId: null }, 'INVALID_FIELD', 'albumId must be a non-empty string.'],
		[
			'linkId is unknown',
			{ linkId: 'no-such-event' },
			'UNKNOWN_EVENT',
			'No event with linkId "no-such-event" for this API key.',
		],
		[
			"linkId is another account's event",
			{ linkId: 'other-event', albumId: 'x1' },
			'UNKNOWN_EVENT',
			'No event with linkId "other-event" for this API key.',
		],
		[
			'albumId is not in the event',
			{ albumId: 'nope' },
			'UNKNOWN_ALBUM',
			'Event "wedding-anna-ben" has no album "nope".',
		],
		[
			'albumId belongs to another event',
			{ albumId: 'sp-booth' },
			'UNKNOWN_ALBUM',
			'Event "wedding-anna-ben" has no album "sp-booth".',
		],
		[
			'albumId is the album title',
			{ albumId: 'Photo booth' },
			'UNKNOWN_ALBUM',
			'Event "wedding-anna-ben" has no album "Photo booth".',
		],
		[
			'albumId is given for an event without albums',
			{ linkId: 'office-opening', albumId: 'booth' },
			'UNKNOWN_ALBUM',
			'Event "office-opening" has no album "booth".',
		],
	])('400 when %s', async (_n, change, code, message) => {
		const res = await askUploadUrl(emu, { ...good(), ...change });
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expectErrorObject(res.text, code, message);
	});

	test('GET is refused with 405; unknown paths answer 404 with the Error object', async () => {
		const res = await call(`${emu.baseUrl}/getuploadurl`);
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('POST');
		const nf = await call(`${emu.baseUrl}/v1/getuploadurl`, { method: 'POST' });
		expect(nf.status).toBe(404);
		expectErrorObject(nf.text, 'NOT_FOUND', 'No such endpoint.');
	});

	test('the content type signed into the address follows mime-types from the file name', async () => {
		const cases: [string, string][] = [
			['IMG_0001.JPG', 'image/jpeg'],
			['clip.mp4', 'video/mp4'],
			['scan.heic', 'image/heic'],
			['notes', 'application/octet-stream'],
			['archive.unknownext', 'application/octet-stream'],
		];
		for (const [fileName, type] of cases) {
			const res = await askUploadUrl(emu, { ...good(), fileName });
			const url = new URL(JSON.parse(res.text).uploadUrl);
			const meta = JSON.parse(
				Buffer.from(url.searchParams.get('X-EP-Meta') ?? '', 'base64url').toString('utf8'),
			);
			expect(meta.contentType).toBe(type);
		}
	});
});
