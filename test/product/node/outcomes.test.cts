import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { clearDedupStore } = require('../../tools/engine');

/** Every field of an output item with Simplify off, in order: docs/upload.md's example item. */
const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'upload.md'), 'utf8');
const FIELDS = Object.keys(JSON.parse(/## The output item[^]*?```json\n([^]*?)```/.exec(doc)![1]));

const file = (fileName: string, data: Buffer) => ({
	json: { name: fileName },
	binary: { data: binaryFromBuffer(data, { fileName, mimeType: 'image/jpeg' }) },
});

describe('Photo > Upload: what became of each file, where the user looks', () => {
	const emu = useEmulator();
	beforeEach(() => {
		clearDedupStore();
	});

	const seen = mediaBytes(2000);
	const skipping = uploadParameters({
		options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 1 },
	});

	it('uploaded, skipped and failed items share every field in one order, outcome first', async () => {
		await runEventPics({ emu, parameters: skipping, inputItems: [file('seen.jpg', seen)] });
		const { items, status, nodeHints } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: skipping,
			inputItems: [
				file('new.jpg', mediaBytes(3000)),
				file('seen-again.jpg', seen),
				file('notes.txt', Buffer.from('plain text, not a photo')),
				{ json: { name: 'nothing' } },
			],
		});
		expect(status).toBe('success');
		for (const item of items) expect(Object.keys(item.json)).toEqual(FIELDS);
		expect(items.map((item) => [item.json.outcome, item.json.fileName])).toEqual([
			['uploaded', 'new.jpg'],
			['skipped', 'seen-again.jpg'],
			['failed', 'notes.txt'],
			['failed', null],
		]);
		expect(items[1].json.reason).toBe(
			'This workflow uploaded this file to this event and album before (Skip Files Uploaded Before).',
		);
		// a failed file still says where it was going and where it came from
		expect(items[2].json).toMatchObject({
			linkId: 'wedding-anna-ben',
			eventTitle: "Anna & Ben's Wedding",
			albumId: 'booth',
			albumTitle: 'Photo booth',
			binaryField: 'data',
			statusCode: null,
			warnings: [],
		});
		// one sentence, once: why it failed in `error` (n8n's place), `reason` for skipped files
		expect(items[2].json.reason).toBeNull();
		expect(items[2].json.error).toMatch(/^The file from binary field "data" is refused/);
		expect(items[3].json.error).toBe(
			'The item has no binary data (expected a binary field "data")',
		);
		// not n8n's error object: the engine would replace such an item's JSON by { error } alone
		expect(items.map((item) => item.error)).toEqual([undefined, undefined, undefined, undefined]);
		expect(nodeHints).toEqual([
			{
				message: 'EventPics: 1 file uploaded, 1 skipped (uploaded before), 2 failed (see "error").',
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});

	it('counts files, not items, and names warnings', async () => {
		const { items, nodeHints } = await runEventPics({
			emu,
			parameters: uploadParameters({ binaryPropertyName: '*' }),
			inputItems: [
				{
					json: {},
					binary: {
						a: binaryFromBuffer(mediaBytes(100), { fileName: 'a.jpg' }),
						// a PNG named .jpg goes up with a warning
						b: binaryFromBuffer(mediaBytes(108, 'png'), {
							fileName: 'b.jpg',
							mimeType: 'image/jpeg',
						}),
					},
				},
			],
		});
		expect(items.map((item) => item.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(nodeHints.map((hint) => [hint.message, hint.type])).toEqual([
			['EventPics: 2 files uploaded, 1 with a warning (see "warnings").', 'info'],
		]);
	});

	it('gives Taken At as ISO 8601 in the workflow time zone (and in milliseconds), null when none is sent', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters({ takenAt: { source: 'value', value: '={{ $json.when }}' } }),
			inputItems: [
				{ ...file('winter.jpg', mediaBytes(100)), json: { when: '2026-01-15T09:00:00Z' } },
				{ ...file('summer.jpg', mediaBytes(100)), json: { when: '2026-07-15T09:00:00.250Z' } },
			],
			settings: { timezone: 'Europe/Berlin' },
		});
		expect(items.map((item) => [item.json.takenAtMs, item.json.takenAt])).toEqual([
			[Date.UTC(2026, 0, 15, 9), '2026-01-15T10:00:00+01:00'],
			[Date.UTC(2026, 6, 15, 9, 0, 0, 250), '2026-07-15T11:00:00.250+02:00'],
		]);
		const none = await runEventPics({
			emu,
			parameters: uploadParameters({ takenAt: { source: 'none' } }),
			inputItems: [file('undated.jpg', mediaBytes(10))],
		});
		expect(none.items[0].json).toMatchObject({
			takenAt: null,
			takenAtMs: null,
			takenAtSource: null,
		});
	});

	it('a failed URL item shows the address without its password', async () => {
		const { items } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters({
				source: 'url',
				fileUrl: 'http://user:secret@127.0.0.1:9/photo.jpg',
			}),
		});
		expect(items[0].json).toMatchObject({
			outcome: 'failed',
			url: 'http://127.0.0.1:9/photo.jpg',
			binaryField: null,
		});
		expect(JSON.stringify(items[0].json)).not.toContain('secret');
	});

	it('Simplify, on by default, keeps the fields a user acts on; reason and error only where a file was not uploaded', async () => {
		const { simplify, ...byDefault } = skipping;
		expect(simplify).toBe(false); // the fixture turns it off for the engine tests
		await runEventPics({ emu, parameters: byDefault, inputItems: [file('seen.jpg', seen)] });
		const { items, nodeHints } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: {
				...byDefault,
				options: {
					...(byDefault.options as object),
					takenAt: { settings: { source: 'value', value: '2026-06-20T18:30:00Z' } },
				},
			},
			inputItems: [
				file('new.jpg', mediaBytes(3000)),
				file('seen-again.jpg', seen),
				file('notes.txt', Buffer.from('plain text, not a photo')),
			],
			settings: { timezone: 'UTC' },
		});
		const where = { eventTitle: "Anna & Ben's Wedding", albumTitle: 'Photo booth' };
		expect(items[0].json).toEqual({
			outcome: 'uploaded',
			fileName: 'new.jpg',
			...where,
			takenAt: '2026-06-20T18:30:00Z',
			bytes: 3000,
			warnings: [],
		});
		expect(items[1].json).toEqual({
			outcome: 'skipped',
			fileName: 'seen-again.jpg',
			...where,
			takenAt: '2026-06-20T18:30:00Z',
			bytes: seen.length,
			reason:
				'This workflow uploaded this file to this event and album before (Skip Files Uploaded Before).',
			warnings: [],
		});
		expect(Object.keys(items[2].json)).toEqual([
			'outcome',
			'fileName',
			'error',
			'eventTitle',
			'albumTitle',
			'takenAt',
			'bytes',
			'warnings',
		]);
		expect(items[2].json).toMatchObject({ outcome: 'failed', fileName: 'notes.txt', ...where });
		expect(items[2].json.error).toMatch(/^The file from binary field "data" is refused/);
		// a field keeps its name and type in both outputs
		const full = await runEventPics({
			emu,
			parameters: {
				...skipping,
				options: {
					...(skipping.options as object),
					takenAt: { settings: { source: 'value', value: '2026-06-20T18:30:00Z' } },
				},
			},
			inputItems: [file('another.jpg', mediaBytes(3000))],
			settings: { timezone: 'UTC' },
		});
		for (const field of Object.keys(items[0].json))
			expect([field, typeof full.items[0].json[field]]).toEqual([
				field,
				typeof items[0].json[field],
			]);
		expect(emu.uploads.map((upload) => upload.fileName)).toEqual([
			'seen.jpg',
			'new.jpg',
			'another.jpg',
		]);
		// the hint counts what the full output counts
		expect(nodeHints[0].message).toBe(
			'EventPics: 1 file uploaded, 1 skipped (uploaded before), 1 failed (see "error").',
		);
	});
});
