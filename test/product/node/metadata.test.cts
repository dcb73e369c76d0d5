import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	binaryFromFile,
	binaryFromBuffer,
	fromList,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

const corpus = (name: string) => join(__dirname, '..', '..', 'fixtures', 'exif', name);

const upload = uploadParameters;

const emu = useEmulator();

describe('Photo > Upload: Taken At from the photo (EXIF), in the real engine', () => {
	it('is the default and sends DateTimeOriginal with its own offset and sub-seconds', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [{ binary: { data: binaryFromFile(corpus('jpeg-phone-all-tags.jpg')) } }],
		});
		// 2023:06:30 23:59:58.042 +02:00
		const expected = Date.UTC(2023, 5, 30, 21, 59, 58, 42);
		expect(items[0].json).toMatchObject({
			takenAtMs: expected,
			takenAtSource: 'exif',
			exifTag: 'DateTimeOriginal',
		});
		expect(emu.uploads[0].takenAt).toBe(expected);
		// takenAt is the same instant as an ISO string, in both Simplify modes
		expect(Date.parse(String(items[0].json.takenAt))).toBe(expected);
	});

	it("reads a date without offset in the workflow's time zone", async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			settings: { timezone: 'Europe/Berlin' },
			inputItems: [{ binary: { data: binaryFromFile(corpus('jpeg-canon-subsec.jpg')) } }],
		});
		// 2022:12:31 23:59:59.120 in Berlin (UTC+1 in winter)
		expect(items[0].json).toMatchObject({
			takenAtMs: Date.UTC(2022, 11, 31, 22, 59, 59, 120),
			takenAtSource: 'exif',
		});
	});

	// the stored file is read in 64 KiB chunks; the EXIF block lies in the second one, or across both
	it.each([
		['past the first 64 KiB', 65_533],
		['across the first 64 KiB', 65_520 - 18],
	])('reads the date of a JPEG whose EXIF block lies %s', async (_, fill) => {
		const photo = readFileSync(corpus('jpeg-phone-all-tags.jpg'));
		// an APP15 segment of `fill` bytes (its length field included) right after the start marker
		const app15 = Buffer.alloc(2 + fill, 0x20);
		app15.writeUInt16BE(0xffef, 0);
		app15.writeUInt16BE(fill, 2);
		const padded = Buffer.concat([photo.subarray(0, 2), app15, photo.subarray(2)]);
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [{ binary: { data: binaryFromBuffer(padded, { fileName: 'padded.jpg' }) } }],
		});
		expect(items[0].json).toMatchObject({
			takenAtMs: Date.UTC(2023, 5, 30, 21, 59, 58, 42),
			takenAtSource: 'exif',
			whole: true,
		});
		expect(emu.uploads[0].sha256).toBe(createHash('sha256').update(padded).digest('hex'));
	});

	it('reads HEIC and PNG too', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [
				{ binary: { data: binaryFromFile(corpus('heic-exiftool.heic')) } },
				{ binary: { data: binaryFromFile(corpus('png-exif-exiftool.png')) } },
			],
		});
		// 2006:06:06 06:06:06.123 +09:30
		expect(items[0].json).toMatchObject({
			takenAtMs: Date.UTC(2006, 5, 5, 20, 36, 6, 123),
			contentType: 'image/heic',
		});
		expect(items[1].json).toMatchObject({ takenAtSource: 'exif', contentType: 'image/png' });
		const stored = new Map(emu.uploads.map((u) => [u.fileName, u.takenAt]));
		expect(items.map((item) => stored.get(String(item.json.fileName)))).toEqual(
			items.map((item) => item.json.takenAtMs),
		);
	});

	it('falls back to the chosen mode when the photo has no date', async () => {
		const noExif = () => ({ binary: { data: binaryFromFile(corpus('png-no-exif.png')) } });
		const none = await runEventPics({ emu, parameters: upload(), inputItems: [noExif()] });
		expect(none.items[0].json).toMatchObject({ takenAt: null, takenAtSource: null });

		const before = Date.now();
		const now = await runEventPics({
			emu,
			parameters: upload({ takenAt: { fallback: 'now' } }),
			inputItems: [noExif()],
		});
		expect(now.items[0].json.takenAtSource).toBe('now');
		expect(now.items[0].json.takenAtMs).toBeGreaterThanOrEqual(before);
		expect(now.items[0].json.takenAtMs).toBeLessThanOrEqual(Date.now());

		const value = await runEventPics({
			emu,
			parameters: upload({ takenAt: { fallback: 'value', value: '={{ $json.shot }}' } }),
			inputItems: [{ json: { shot: '2026-06-20T18:30:00Z' }, ...noExif() }],
		});
		expect(value.items[0].json).toMatchObject({
			takenAtMs: Date.UTC(2026, 5, 20, 18, 30),
			takenAtSource: 'value',
		});
	});

	it('sends nothing when told to, even for a photo with a date', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ takenAt: { source: 'none' } }),
			inputItems: [{ binary: { data: binaryFromFile(corpus('jpeg-phone-all-tags.jpg')) } }],
		});
		expect(items[0].json).toMatchObject({ takenAt: null, takenAtSource: null });
		expect(emu.uploads[0].takenAt).toBeNull();
	});

	it('a corrupt EXIF block falls back instead of failing the upload; a file cut in its EXIF is not uploaded', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ takenAt: { fallback: 'now' } }),
			inputItems: [
				'corrupt-ifd0-offset.jpg',
				'corrupt-entry-count.jpg',
				'truncated-in-exif.jpg',
			].map((name) => ({
				binary: { data: binaryFromFile(corpus(name)) },
			})),
		});
		// the truncated one is cut short as a file, too: not uploaded, whatever its date
		expect(items.map((item) => [item.json.outcome, item.json.takenAtSource])).toEqual([
			['uploaded', 'now'],
			['uploaded', 'now'],
			['incomplete', 'now'],
		]);
	});
});

describe('Photo > Upload: exact media types', () => {
	const MOV = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypqt  '), randomBytes(88)]);
	it.each([
		[
			'sends the type of the name, and warns when the bytes say another format',
			binaryFromFile(corpus('png-no-exif.png'), {
				fileName: 'holiday.jpg',
				mimeType: 'image/jpeg',
			}),
			'image/jpeg',
			[
				'"holiday.jpg" is sent as image/jpeg (from its name), but its bytes are PNG (image/png). Rename the file with the right extension if the album shows it wrong.',
			],
		],
		[
			"warns when n8n's MIME type of the binary disagrees with the name",
			binaryFromBuffer(MOV, { fileName: 'clip.mov', mimeType: 'video/mp4' }),
			'video/quicktime',
			[
				'"clip.mov" is sent as video/quicktime (from its name), but the binary\'s MIME type is video/mp4.',
			],
		],
		[
			'gives no warning when name, MIME type and bytes agree',
			binaryFromFile(corpus('jpeg-phone-all-tags.jpg'), { mimeType: 'image/jpeg' }),
			'image/jpeg',
			[],
		],
	])('%s', async (_name, data, contentType, warnings) => {
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [{ binary: { data } }],
		});
		expect(items[0].json).toMatchObject({ contentType, warnings });
		// what went up went up with that type (the short movie is not whole, so it stays)
		const sent = items[0].json.outcome === 'uploaded' ? [contentType] : [];
		expect(emu.uploads.map((u) => u.contentType)).toEqual(sent);
	});
});
