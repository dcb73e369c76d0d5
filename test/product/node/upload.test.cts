import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

import {
	fileItem,
	binaryFromFile,
	byId,
	fromList,
	inlineBinary,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const upload = uploadParameters;

describe('Photo > Upload in the real engine against the emulator', () => {
	const emu = useEmulator();
	const dir = mkdtempSync(join(tmpdir(), 'eventpics-upload-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('uploads a photo: one getuploadurl, one PUT, the bytes stored as sent', async () => {
		const photo = mediaBytes(50_000); // a JPEG's first bytes, then random ones
		const { items, status, nodeHints } = await runEventPics({
			emu,
			parameters: upload({ takenAt: { source: 'value', value: '2026-06-20T18:30:00+02:00' } }),
			inputItems: [fileItem('booth-0001.jpg', photo, 'image/jpeg')],
		});
		expect(status).toBe('success');
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toEqual({
			outcome: 'uploaded',
			reason: null,
			linkId: 'wedding-anna-ben',
			eventTitle: "Anna & Ben's Wedding",
			albumId: 'booth',
			albumTitle: 'Photo booth',
			fileName: 'booth-0001.jpg',
			contentType: 'image/jpeg',
			bytes: 50_000,
			takenAtMs: Date.UTC(2026, 5, 20, 16, 30),
			// in the workflow's time zone: n8n's default (GENERIC_TIMEZONE America/New_York) here
			takenAt: '2026-06-20T12:30:00-04:00',
			takenAtSource: 'value',
			exifTag: null,
			binaryField: 'data',
			url: null,
			typeFromContent: null,
			whole: true,
			binaryDataMode: null,
			statusCode: 200,
			attempts: 1,
			uploadUrlRequests: 1,
			etag: emu.uploads[0].etag,
			historyKey: null,
			possibleDuplicate: false,
			warnings: [],
			error: null,
		});
		expect(Object.keys(items[0].json)[0]).toBe('outcome');
		expect(nodeHints).toEqual([
			{ message: 'EventPics: 1 file uploaded.', type: 'info', location: 'outputPane' },
		]);
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0]).toMatchObject({
			linkId: 'wedding-anna-ben',
			albumId: 'booth',
			fileName: 'booth-0001.jpg',
			contentType: 'image/jpeg',
			size: 50_000,
			sha256: sha256(photo),
			takenAt: Date.UTC(2026, 5, 20, 16, 30),
		});
		const api = emu.requests.filter((r) => r.server === 'api').map((r) => `${r.method} ${r.url}`);
		expect(api).toEqual(['GET /geteventsandalbums', 'POST /getuploadurl']);
	});

	it('sends the PUT to the whole address with exactly the documented headers', async () => {
		await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [fileItem('a.png', mediaBytes(1234, 'png'), 'image/png')],
		});
		const puts = emu.requests.filter((r) => r.server === 'storage');
		expect(puts).toHaveLength(1);
		const put = puts[0];
		expect(put.method).toBe('PUT');
		expect(put.status).toBe(200);
		expect(put.url.startsWith(`${emu.uploads[0].key}?`)).toBe(true);
		expect(put.headers['content-type']).toBe('image/png');
		expect(put.headers['content-length']).toBe('1234');
		expect(put.headers['transfer-encoding']).toBeUndefined();
		expect(put.headers.authorization).toBeUndefined();
		expect(put.headers['x-api-key']).toBeUndefined();
		expect(JSON.stringify(put)).not.toContain(emu.apiKey);
	});

	it('streams a large file from the binary store (64 MiB) and stores it intact', async () => {
		const big = mediaBytes(64 * 1024 * 1024, 'mp4');
		const path = join(dir, 'wedding-video.mp4');
		writeFileSync(path, big);
		const { items } = await runEventPics({
			emu,
			parameters: upload({ event: byId('summer-party-2026'), album: byId('sp-dance') }),
			inputItems: [{ binary: { data: binaryFromFile(path, { mimeType: 'video/mp4' }) } }],
		});
		expect(items[0].json).toMatchObject({
			fileName: 'wedding-video.mp4',
			contentType: 'video/mp4',
			bytes: big.length,
			albumId: 'sp-dance',
		});
		expect(emu.uploads[0]).toMatchObject({
			size: big.length,
			sha256: sha256(big),
			contentType: 'video/mp4',
			albumId: 'sp-dance',
		});
	});

	it('uploads inline (base64, no id) binaries too', async () => {
		const photo = mediaBytes(3000);
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [
				{
					binary: { data: inlineBinary(photo, { fileName: 'pinned.jpg', mimeType: 'image/jpeg' }) },
				},
			],
		});
		expect(items[0].json).toMatchObject({ fileName: 'pinned.jpg', bytes: 3000, statusCode: 200 });
		expect(emu.uploads[0].sha256).toBe(sha256(photo));
	});

	it('adds the extension from the MIME type and derives the Content-Type from the name sent', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [fileItem('IMG_0042', mediaBytes(40, 'png'), 'image/png')],
		});
		expect(items[0].json).toMatchObject({ fileName: 'IMG_0042.png', contentType: 'image/png' });
		expect(emu.uploads[0]).toMatchObject({ fileName: 'IMG_0042.png', contentType: 'image/png' });
	});

	it('uses the File Name option, without its directory part', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ options: { fileName: 'imports/2026/Tanz 💃.heic' } }),
			inputItems: [fileItem('x.jpg', mediaBytes(60, 'heic'), 'image/jpeg')],
		});
		expect(items[0].json).toMatchObject({ fileName: 'Tanz 💃.heic', contentType: 'image/heic' });
		expect(emu.uploads[0]).toMatchObject({ fileName: 'Tanz 💃.heic', contentType: 'image/heic' });
	});

	it('sends no album when the Album field is empty', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ event: byId('office-opening'), album: fromList('') }),
			inputItems: [fileItem('a.jpg', mediaBytes(10))],
		});
		expect(items[0].json).toMatchObject({ linkId: 'office-opening', albumId: null, takenAt: null });
		expect(emu.uploads[0]).toMatchObject({
			linkId: 'office-opening',
			albumId: null,
			takenAt: null,
		});
	});

	it('reads Taken At as epoch seconds, epoch milliseconds and local ISO in the workflow zone', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ takenAt: { source: 'value', value: '={{ $json.when }}' } }),
			inputItems: [1750437000, 1750437000123, '2025-06-20T18:30:00', '2025-06-20T18:30:00Z'].map(
				(when, index) => fileItem(`${'abcd'[index]}.jpg`, mediaBytes(100), undefined, { when }),
			),
			settings: { timezone: 'Asia/Tokyo' },
		});
		const expected = [
			1750437000000,
			1750437000123,
			Date.UTC(2025, 5, 20, 9, 30),
			Date.UTC(2025, 5, 20, 18, 30),
		];
		expect(items.map((item) => item.json.takenAtMs)).toEqual(expected);
		// the same instants as ISO 8601 in the workflow's zone, with its offset
		expect(items.map((item) => item.json.takenAt)).toEqual([
			'2025-06-21T01:30:00+09:00',
			'2025-06-21T01:30:00.123+09:00',
			'2025-06-20T18:30:00+09:00',
			'2025-06-21T03:30:00+09:00',
		]);
		// uploads run concurrently: the emulator may store them in another order
		const stored = new Map(emu.uploads.map((u) => [u.fileName, u.takenAt]));
		expect(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((name) => stored.get(name))).toEqual(expected);
	});

	it('uploads several items in order, each paired with its input item', async () => {
		const files = ['1.jpg', '2.png', '3.mp4', '4.mov'];
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: files.map((name) => fileItem(name, mediaBytes(100, extname(name)))),
		});
		expect(
			items.map((item) => [item.json.fileName, item.json.contentType, item.pairedItem]),
		).toEqual([
			['1.jpg', 'image/jpeg', { item: 0 }],
			['2.png', 'image/png', { item: 1 }],
			['3.mp4', 'video/mp4', { item: 2 }],
			['4.mov', 'video/quicktime', { item: 3 }],
		]);
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual(files);
	});

	it('sends an unknown extension as application/octet-stream only when asked to', async () => {
		const input = [fileItem('scan.zzz', 'x', 'application/octet-stream')];
		const refused = await runEventPics({ emu, parameters: upload(), inputItems: input });
		expect(refused.nodeError?.message).toBe(
			'Cannot tell the media type of the file: the extension ".zzz" of "scan.zzz" has no known media type',
		);
		expect(emu.uploads).toHaveLength(0);
		const { items } = await runEventPics({
			emu,
			parameters: upload({ options: { fileTypes: 'unknown' } }),
			inputItems: input,
		});
		expect(items[0].json).toMatchObject({
			fileName: 'scan.zzz',
			contentType: 'application/octet-stream',
		});
		expect(emu.uploads[0].contentType).toBe('application/octet-stream');
	});

	it('File Types "Photos, Videos and Unknown Types" keeps the content checks: a page named .jpg is refused', async () => {
		const page = Buffer.from('<!DOCTYPE html><html><body>Please log in</body></html>');
		const input = [fileItem('photo.jpg', page, 'image/jpeg')];
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ options: { fileTypes: 'unknown' } }),
			inputItems: input,
		});
		expect(nodeError?.message).toMatch(
			/is refused: "photo\.jpg" would be sent as image\/jpeg, but its content is HTML/,
		);
		expect(nodeError?.description).toContain('set Options > "File Types" to "Any File"');
		expect(emu.uploads).toHaveLength(0);
	});
});
