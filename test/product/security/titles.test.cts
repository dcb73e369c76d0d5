import type { RunResult } from '../node/fixture.cts';
import {
	binaryFromBuffer,
	fileItem,
	mediaBytes,
	byId,
	callListSearch,
	credentialTypes,
	NODE_TYPE,
	nodeTypes,
	runEventPics,
	uploadParameters,
	useEmulator,
	GET_ALL_EVENTS,
} from '../node/fixture.cts';

/**
 * Threat: what the API sends was copied unfiltered. Event and album titles reached outputs,
 * dropdowns, errors and an AI agent's tool answers with bidi and control characters and line
 * breaks; a 3.9 MB title went into every error and every item (with 150 uploads n8n's
 * JSON.stringify of the run data failed with "Invalid string length").
 *
 * Titles are now cleaned where the answer is read (helpers/events.ts): line breaks and tabs become
 * spaces, control, bidi and zero-width characters go, runs of spaces become one, and they are cut to
 * 200 characters; an id longer than 1024 characters is no id (its event or album is left out).
 */
const HOSTILE = "Anna\u202e & Ben\u200b's\r\nWedding\u0007\t!";
const CLEAN = "Anna & Ben's Wedding !";
const ALBUM_HOSTILE = 'Photo\u2066booth\u2069\u2028(\u200fcorner)';
const ALBUM_CLEAN = 'Photobooth (corner)';
const BIG = 'B'.repeat(3_900_000);
/** What a title may never hold (bidi, zero-width, controls, line breaks). */
const INVISIBLE =
	/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\u2066-\u2069\ufeff]/u;

/** The demo account's ids (the emulator checks them on upload) with the titles a test chooses. */
const answer = (eventTitle: string, albumTitle: string, extra: object[] = []) =>
	JSON.stringify({
		events: [
			{
				linkId: 'wedding-anna-ben',
				title: eventTitle,
				albums: [{ id: 'booth', title: albumTitle }],
			},
			...extra,
		],
	});

const emu = useEmulator();

const titlesAre = (eventTitle: string, albumTitle: string) =>
	emu.addFault({
		endpoint: 'geteventsandalbums',
		kind: 'status',
		status: 200,
		body: answer(eventTitle, albumTitle),
	});

const getMany = async (): Promise<RunResult> =>
	await runEventPics({
		emu,
		parameters: GET_ALL_EVENTS,
	});

const search = async (methodName: string, parameters: object = {}) =>
	await callListSearch({
		nodeType: NODE_TYPE,
		nodeTypes,
		credentialTypes,
		credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
		methodName,
		parameters,
	});

describe('security: titles from the API are cleaned and cut wherever they are shown', () => {
	it('in outputs: bidi, zero-width and control characters removed, line breaks and tabs as spaces', async () => {
		titlesAre(HOSTILE, ALBUM_HOSTILE);
		const { items } = await getMany();
		expect(items[0].json).toMatchObject({
			title: CLEAN,
			albums: [{ id: 'booth', title: ALBUM_CLEAN }],
		});
		expect(JSON.stringify(items)).not.toMatch(INVISIBLE);
	});

	it('in the dropdowns', async () => {
		titlesAre(HOSTILE, ALBUM_HOSTILE);
		expect((await search('searchEvents')).results).toEqual([
			{ name: CLEAN, value: 'wedding-anna-ben' },
		]);
		const albums = await search('searchAlbums', { event: byId('wedding-anna-ben') });
		expect(albums.results.slice(1)).toEqual([{ name: ALBUM_CLEAN, value: 'booth' }]);
	});

	it("in an AI agent's tool answer (the output of the call, the event picked by $fromAI())", async () => {
		titlesAre(HOSTILE, ALBUM_HOSTILE);
		const { items } = await runEventPics({
			emu,
			parameters: {
				resource: 'event',
				operation: 'get',
				event: { __rl: true, mode: 'id', value: "={{ $fromAI('linkId', 'The event', 'string') }}" },
			},
			inputItems: [{ json: { linkId: 'wedding-anna-ben' } }],
		});
		const answerText = JSON.stringify(items.map((item) => item.json));
		expect(answerText).toContain(CLEAN);
		expect(answerText).not.toMatch(INVISIBLE);
	});

	it('in errors: an album not of the event names both by their clean titles', async () => {
		titlesAre(HOSTILE, ALBUM_HOSTILE);
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ album: byId('ceremony') }),
			inputItems: [{ binary: { data: binaryFromBuffer(mediaBytes(100), { fileName: 'a.jpg' }) } }],
		});
		expect(result.nodeError?.message).toBe(
			`The album "ceremony" is not an album of "${CLEAN}" (wedding-anna-ben); its albums are "${ALBUM_CLEAN}" (booth)`,
		);
	});

	it('a title of 3.9 MB is cut to 200 characters in every item and error, and the run data stays small', async () => {
		// (the answer stays under the 4 MiB the node reads)
		titlesAre(BIG, 'Booth');
		const files = Array.from({ length: 20 }, (_, i) =>
			fileItem(`p${i}.jpg`, mediaBytes(100), 'image/jpeg'),
		);
		const result = await runEventPics({ emu, parameters: uploadParameters(), inputItems: files });
		expect(result.items).toHaveLength(20);
		for (const { json } of result.items) {
			expect(json).toMatchObject({
				outcome: 'uploaded',
				eventTitle: `${'B'.repeat(199)}…`,
				albumTitle: 'Booth',
			});
		}
		expect(result.text().length).toBeLessThan(300_000);
		const refused = await runEventPics({
			emu,
			parameters: uploadParameters({ album: byId('ceremony') }),
			inputItems: [files[0]],
		});
		expect(refused.nodeError?.message.length).toBeLessThan(600);
	});

	it('an id longer than 1024 characters is no id: its event is left out of the list', async () => {
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 200,
			body: answer('Anna', 'Booth', [{ linkId: 'x'.repeat(2000), title: 'Huge' }]),
		});
		const { items } = await getMany();
		expect(items.map((item) => item.json.linkId)).toEqual(['wedding-anna-ben']);
	});
});
