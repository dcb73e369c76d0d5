/** Tag choice and IFD walking, on synthetic TIFF structures (as TIFF files and inside JPEG APP1). */
import { readCaptureTime as read } from '../../../nodes/EventPics/helpers/exif';
import { buildJpeg, buildTiff, concat, type Entry, T } from './build.cts';

const ALL: Entry[] = [
	{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
	{ tag: T.CreateDate, value: '2020:01:02 03:04:06' },
	{ tag: T.OffsetTime, value: '+04:00' },
	{ tag: T.OffsetTimeOriginal, value: '+02:00' },
	{ tag: T.OffsetTimeDigitized, value: '+03:00' },
	{ tag: T.SubSecTime, value: '3' },
	{ tag: T.SubSecTimeOriginal, value: '1' },
	{ tag: T.SubSecTimeDigitized, value: '2' },
];
const IFD0: Entry[] = [{ tag: T.DateTime, value: '2020:01:02 03:04:07' }];
const without = (entries: Entry[], ...tags: number[]) =>
	entries.filter((e) => !tags.includes(e.tag));

describe.each(['II', 'MM'] as const)('%s byte order', (order) => {
	test.each([
		[
			'all three dates: DateTimeOriginal',
			ALL,
			{ dateTime: '2020-01-02T03:04:05.100', offset: '+02:00', tag: 'DateTimeOriginal' },
		],
		[
			'no DateTimeOriginal: CreateDate',
			without(ALL, T.DateTimeOriginal),
			{ dateTime: '2020-01-02T03:04:06.200', offset: '+03:00', tag: 'CreateDate' },
		],
		[
			'neither: IFD0 DateTime',
			without(ALL, T.DateTimeOriginal, T.CreateDate),
			{ dateTime: '2020-01-02T03:04:07.300', offset: '+04:00', tag: 'DateTime' },
		],
	])('%s, with its own offset and sub-seconds', (_, exif, expected) => {
		expect(read(buildTiff(order, IFD0, exif))).toEqual(expected);
		expect(read(buildJpeg(buildTiff(order, IFD0, exif)))).toEqual(expected);
	});

	test('only IFD0 DateTime and no Exif IFD at all', () => {
		expect(read(buildTiff(order, IFD0))).toEqual({
			dateTime: '2020-01-02T03:04:07',
			tag: 'DateTime',
		});
	});
});

test('an offset or sub-seconds of another date are never borrowed', () => {
	const exif = [
		{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
		{ tag: T.OffsetTime, value: '+04:00' },
		{ tag: T.OffsetTimeDigitized, value: '+03:00' },
		{ tag: T.SubSecTimeDigitized, value: '2' },
	];
	expect(read(buildTiff('II', IFD0, exif))).toEqual({
		dateTime: '2020-01-02T03:04:05',
		tag: 'DateTimeOriginal',
	});
});

test('an unusable date falls back to the next tag; no usable date at all gives undefined', () => {
	const zero = [
		{ tag: T.DateTimeOriginal, value: '0000:00:00 00:00:00' },
		...without(ALL, T.DateTimeOriginal),
	];
	expect(read(buildTiff('MM', IFD0, zero))?.tag).toBe('CreateDate');
	const blanks = [
		{ tag: T.DateTimeOriginal, value: '    :  :     :  :  ' },
		{ tag: T.CreateDate, value: '' },
		{ tag: T.OffsetTimeOriginal, value: '+02:00' },
	];
	expect(read(buildTiff('MM', [{ tag: T.DateTime, value: 'garbage' }], blanks))).toBeUndefined();
});

test('unusable offsets and sub-seconds are left out, the date kept', () => {
	const exif = [
		{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
		{ tag: T.OffsetTimeOriginal, value: '   :  ' },
		{ tag: T.SubSecTimeOriginal, value: '1a' },
	];
	expect(read(buildTiff('II', [], exif))).toEqual({
		dateTime: '2020-01-02T03:04:05',
		tag: 'DateTimeOriginal',
	});
});

test('tags are taken only from the IFD the standard puts them in', () => {
	// DateTimeOriginal in IFD0 and DateTime in the Exif IFD are not read
	const ifd0 = [{ tag: T.DateTimeOriginal, value: '2020:01:01 00:00:00' }];
	const exif = [{ tag: T.DateTime, value: '2020:01:01 00:00:00' }];
	expect(read(buildTiff('II', ifd0, exif))).toBeUndefined();
});

test('value types and sizes: ASCII only, up to 64 bytes, a missing NUL tolerated', () => {
	const dto = (entry: Partial<Entry>) =>
		buildTiff('II', [], [{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05', ...entry }]);
	expect(read(dto({ count: 19 }))).toEqual({
		dateTime: '2020-01-02T03:04:05',
		tag: 'DateTimeOriginal',
	});
	expect(read(dto({ type: 7 }))).toBeUndefined();
	expect(read(dto({ type: 1 }))).toBeUndefined();
	expect(read(dto({ value: `2020:01:02 03:04:05${' '.repeat(50)}` }))).toBeUndefined(); // 70 bytes
	expect(read(dto({ value: `2020:01:02 03:04:05${' '.repeat(40)}` }))).toBeDefined(); // 60 bytes
});

test('the first of duplicate tags in one IFD is used', () => {
	const exif = [
		{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' },
		{ tag: T.DateTimeOriginal, value: '2021:01:02 03:04:05' },
	];
	expect(read(buildTiff('MM', [], exif))?.dateTime).toBe('2020-01-02T03:04:05');
});

describe('corrupt structures give undefined or what is intact, never a throw', () => {
	const exif = [{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' }];

	test('bad headers', () => {
		const good = buildTiff('II', IFD0, exif);
		const patched = (at: number, ...bytes: number[]) => {
			const copy = good.slice();
			copy.set(bytes, at);
			return copy;
		};
		expect(read(patched(2, 43))).toBeUndefined(); // BigTIFF
		expect(read(patched(0, 0x49, 0x4d))).toBeUndefined(); // mixed byte order
		expect(read(buildTiff('II', IFD0, exif, { ifd0Offset: 0 }))).toBeUndefined();
		expect(read(buildTiff('II', IFD0, exif, { ifd0Offset: 4 }))).toBeUndefined();
		expect(read(buildTiff('II', IFD0, exif, { ifd0Offset: 0xfffffff0 }))).toBeUndefined();
		expect(read(good.subarray(0, 7))).toBeUndefined();
	});

	test('an IFD count beyond the data or above 1000 entries', () => {
		const huge = buildTiff('MM', IFD0, exif);
		new DataView(huge.buffer).setUint16(8, 0xffff);
		expect(read(huge)).toBeUndefined();
		const padded = concat(huge, new Uint8Array(0xffff * 12)); // now the 65535 entries "fit"
		expect(read(padded)).toBeUndefined();
	});

	test('an Exif IFD pointer back at IFD0, at the header, or past the end', () => {
		const pointer = (value: number) => buildTiff('II', [...IFD0, { tag: T.ExifIfd, value }]);
		for (const value of [8, 0, 0x7fffffff])
			expect(read(pointer(value))).toEqual({ dateTime: '2020-01-02T03:04:07', tag: 'DateTime' });
	});

	test("IFD0's next-IFD pointer at itself is never followed", () => {
		expect(read(buildTiff('II', IFD0, exif, { nextIfd: 8 }))).toEqual({
			dateTime: '2020-01-02T03:04:05',
			tag: 'DateTimeOriginal',
		});
	});

	test('a value outside the APP1 segment is not read, even if the file has such bytes there', () => {
		const tiff = buildTiff('II', [], exif);
		const VALUE_FIELD = 8 + (2 + 12 + 4) + 2 + 8; // IFD0 with the Exif pointer only, then the DTO entry
		const view = new DataView(tiff.buffer);
		const valueOffset = view.getUint32(VALUE_FIELD, true);
		const date = tiff.slice(valueOffset, valueOffset + 20);
		expect(String.fromCharCode(...date)).toBe('2020:01:02 03:04:05\0');
		// point the value 16 bytes past the end of the TIFF: in the JPEG, past SOS (10 bytes) and 6 bytes of data
		view.setUint32(VALUE_FIELD, tiff.length + 16, true);
		const jpeg = buildJpeg(tiff, [], concat(new Uint8Array(6), date));
		expect(read(jpeg)).toBeUndefined();
		expect(read(concat(tiff, new Uint8Array(16), date))).toBeDefined(); // as a TIFF file it is in range
	});
});
