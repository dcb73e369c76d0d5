/** HEIF/AVIF (ISO BMFF): finding the Exif item through meta, iinf, iloc and idat, on synthetic files. */
import { bufferSource, readCaptureTime, streamSource } from '../../../nodes/EventPics/helpers/exif';
import { ascii, be32, box, buildHeif, buildTiff, concat, T } from './build.cts';
import { chunked } from './corpus.cts';

const tiff = buildTiff(
	'MM',
	[],
	[
		{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
		{ tag: T.OffsetTimeOriginal, value: '+01:00' },
	],
);
const FOUND = { dateTime: '2020-01-02T03:04:05', offset: '+01:00', tag: 'DateTimeOriginal' };
const read = async (bytes: Uint8Array, maxBytes?: number) =>
	await readCaptureTime(bufferSource(bytes), maxBytes ? { maxBytes } : undefined);

test.each([
	['Exif item in mdat, iloc version 1', {}],
	['iloc version 0', { ilocVersion: 0 as const }],
	['iloc version 2 (32-bit item IDs)', { ilocVersion: 2 as const }],
	['infe version 3', { infeVersion: 3 as const }],
	['in idat (construction method 1)', { inIdat: true }],
	['in idat, in three extents', { inIdat: true, extents: 3 }],
	['in mdat, in two extents', { extents: 2 }],
	['after 100 KiB of mdat', { mdatBefore: 100 * 1024 }],
])('%s', async (_, options) => {
	expect(await read(buildHeif(tiff, options))).toEqual(FOUND);
});

test.each([
	['the TIFF right after a 0 header size', concat(be32(0), tiff), FOUND],
	['no header size, the TIFF at once (tolerated like exiftool)', tiff, FOUND],
	[
		'no header size, "Exif\\0\\0" then the TIFF (tolerated like exiftool)',
		concat(ascii('Exif\0\0'), tiff),
		FOUND,
	],
	['a header size past the item', concat(be32(1000), ascii('Exif\0\0'), tiff), undefined],
	['a header size that lands on no TIFF', concat(be32(2), ascii('Exif\0\0'), tiff), undefined],
	['an item of 5 bytes', new Uint8Array(5), undefined],
])('Exif item with %s', async (_, item, expected) => {
	expect(await read(buildHeif(tiff, { item }))).toEqual(expected);
	expect(await read(buildHeif(tiff, { item, inIdat: true }))).toEqual(expected);
});

test.each([
	['in another file (data reference 1)', { dataReferenceIndex: 1 }],
	['protected', { protectionIndex: 1 }],
	['built from another item (construction method 2)', { constructionMethod: 2 }],
	['of type mime, not Exif', { itemType: 'mime' }],
])('an item %s is not read', async (_, options) => {
	expect(await read(buildHeif(tiff, options))).toBeUndefined();
});

describe('the Exif item after a big mdat (5 MB)', () => {
	const heif = buildHeif(tiff, { mdatBefore: 5 * 1024 * 1024 });

	test('past the default 1 MiB limit: undefined', async () => {
		expect(await read(heif)).toBeUndefined();
	});

	test('found with a limit past the item', async () => {
		expect(await read(heif, 6 * 1024 * 1024)).toEqual(FOUND);
	});

	test('from a stream: undefined with the default limit, without pulling past it', async () => {
		const stream = chunked(heif, 64 * 1024);
		const source = streamSource(stream);
		expect(await readCaptureTime(source)).toBeUndefined();
		expect(stream.pulled).toBeLessThanOrEqual(1024 * 1024);
	});

	test('from a stream whose limit and maxBytes reach the item: found', async () => {
		const source = streamSource(chunked(heif, 64 * 1024), 6 * 1024 * 1024);
		expect(await readCaptureTime(source, { maxBytes: 6 * 1024 * 1024 })).toEqual(FOUND);
	});
});

describe('top-level boxes', () => {
	const heif = buildHeif(tiff, { inIdat: true }); // no file offsets: boxes can be inserted before meta
	const ftypEnd = new DataView(heif.buffer).getUint32(0);
	const insert = (...boxes: Uint8Array[]) =>
		concat(heif.subarray(0, ftypEnd), ...boxes, heif.subarray(ftypEnd));

	test('skipped boxes, one with a 64-bit size', async () => {
		const large = concat(be32(1), ascii('free'), be32(0), be32(16 + 100), new Uint8Array(100));
		expect(await read(insert(box('free', new Uint8Array(30)), large))).toEqual(FOUND);
	});

	test('more than 64 boxes before meta: given up', async () => {
		const many = Array.from({ length: 70 }, () => box('free'));
		expect(await read(insert(...many))).toBeUndefined();
		expect(await read(insert(...many.slice(0, 60)))).toEqual(FOUND);
	});

	test('a box of size 0 (to the end), or smaller than its header, ends the search', async () => {
		expect(await read(insert(concat(be32(0), ascii('mdat'))))).toBeUndefined();
		expect(await read(insert(concat(be32(4), ascii('free'))))).toBeUndefined();
	});

	test('a meta box larger than 512 KiB is not read', async () => {
		expect(
			await read(
				buildHeif(tiff, {
					inIdat: true,
					item: concat(be32(6), ascii('Exif\0\0'), tiff, new Uint8Array(600 * 1024)),
				}),
			),
		).toBeUndefined();
	});

	test('truncated inside meta', async () => {
		expect(await read(heif.subarray(0, heif.length - 10))).toBeUndefined();
	});

	test('an ftyp of another family (an MP4 without meta) gives undefined', async () => {
		const mp4 = concat(
			box('ftyp', ascii('isom'), be32(0), ascii('isomiso2')),
			box('moov', new Uint8Array(40)),
			box('mdat', new Uint8Array(100)),
		);
		expect(await read(mp4)).toBeUndefined();
	});
});
