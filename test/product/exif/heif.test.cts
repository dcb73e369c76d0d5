/** HEIF/AVIF (ISO BMFF): finding the Exif item through meta, iinf, iloc and idat, on synthetic files. */
import { readCaptureTime as read } from '../../../nodes/EventPics/helpers/exif';
import { ascii, be32, box, buildHeif, buildTiff, concat, T } from './build.cts';

const tiff = buildTiff(
	'MM',
	[],
	[
		{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
		{ tag: T.OffsetTimeOriginal, value: '+01:00' },
	],
);
const FOUND = { dateTime: '2020-01-02T03:04:05', offset: '+01:00', tag: 'DateTimeOriginal' };

test.each([
	['Exif item in mdat, iloc version 1', {}],
	['iloc version 0', { ilocVersion: 0 as const }],
	['iloc version 2 (32-bit item IDs)', { ilocVersion: 2 as const }],
	['infe version 3', { infeVersion: 3 as const }],
	['in idat (construction method 1)', { inIdat: true }],
	['in idat, in three extents', { inIdat: true, extents: 3 }],
	['in mdat, in two extents', { extents: 2 }],
	['after 100 KiB of mdat', { mdatBefore: 100 * 1024 }],
])('%s', (_, options) => {
	expect(read(buildHeif(tiff, options))).toEqual(FOUND);
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
])('Exif item with %s', (_, item, expected) => {
	expect(read(buildHeif(tiff, { item }))).toEqual(expected);
	expect(read(buildHeif(tiff, { item, inIdat: true }))).toEqual(expected);
});

test.each([
	['in another file (data reference 1)', { dataReferenceIndex: 1 }],
	['protected', { protectionIndex: 1 }],
	['built from another item (construction method 2)', { constructionMethod: 2 }],
	['of type mime, not Exif', { itemType: 'mime' }],
])('an item %s is not read', (_, options) => {
	expect(read(buildHeif(tiff, options))).toBeUndefined();
});

test('an Exif item after 5 MB of mdat: found in the whole file, not in its first MiB (a view of it)', () => {
	const heif = buildHeif(tiff, { mdatBefore: 5 * 1024 * 1024 });
	expect(read(heif)).toEqual(FOUND);
	expect(read(heif.subarray(0, 1024 * 1024))).toBeUndefined();
});

describe('top-level boxes', () => {
	const heif = buildHeif(tiff, { inIdat: true }); // no file offsets: boxes can be inserted before meta
	const ftypEnd = new DataView(heif.buffer).getUint32(0);
	const insert = (...boxes: Uint8Array[]) =>
		concat(heif.subarray(0, ftypEnd), ...boxes, heif.subarray(ftypEnd));

	test('skipped boxes, one with a 64-bit size', () => {
		const large = concat(be32(1), ascii('free'), be32(0), be32(16 + 100), new Uint8Array(100));
		expect(read(insert(box('free', new Uint8Array(30)), large))).toEqual(FOUND);
	});

	test('more than 64 boxes before meta: given up', () => {
		const many = Array.from({ length: 70 }, () => box('free'));
		expect(read(insert(...many))).toBeUndefined();
		expect(read(insert(...many.slice(0, 60)))).toEqual(FOUND);
	});

	test('a box of size 0 (to the end), or smaller than its header, ends the search', () => {
		expect(read(insert(concat(be32(0), ascii('mdat'))))).toBeUndefined();
		expect(read(insert(concat(be32(4), ascii('free'))))).toBeUndefined();
	});

	test('a meta box larger than 512 KiB is not read', () => {
		expect(
			read(
				buildHeif(tiff, {
					inIdat: true,
					item: concat(be32(6), ascii('Exif\0\0'), tiff, new Uint8Array(600 * 1024)),
				}),
			),
		).toBeUndefined();
	});

	test('truncated inside meta', () => {
		expect(read(heif.subarray(0, heif.length - 10))).toBeUndefined();
	});

	test('an ftyp of another family (an MP4 without meta) gives undefined', () => {
		const mp4 = concat(
			box('ftyp', ascii('isom'), be32(0), ascii('isomiso2')),
			box('moov', new Uint8Array(40)),
			box('mdat', new Uint8Array(100)),
		);
		expect(read(mp4)).toBeUndefined();
	});
});
