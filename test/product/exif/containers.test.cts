/** JPEG segment walking and PNG chunk walking, on synthetic files. */
import { readCaptureTime as read } from '../../../nodes/EventPics/helpers/exif';
import {
	ascii,
	buildJpeg,
	buildPng,
	buildTiff,
	chunk,
	concat,
	JFIF,
	segment,
	T,
} from './build.cts';

const tiff = buildTiff('II', [], [{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' }]);
const other = buildTiff('II', [], [{ tag: T.DateTimeOriginal, value: '1999:01:02 03:04:05' }]);
const FOUND = { dateTime: '2020-01-02T03:04:05', tag: 'DateTimeOriginal' };
const exifApp1 = (t: Uint8Array) => segment(0xe1, concat(ascii('Exif\0\0'), t));

describe('JPEG', () => {
	const xmp = segment(0xe1, ascii('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>'));
	const icc = segment(0xe2, concat(ascii('ICC_PROFILE\0'), new Uint8Array(500)));

	test('Exif APP1 after JFIF, XMP APP1, ICC APP2 and a comment', () => {
		expect(read(buildJpeg(tiff, [JFIF, xmp, icc, segment(0xfe, ascii('hello'))]))).toEqual(FOUND);
	});

	test('the first Exif APP1 of two wins', () => {
		expect(read(buildJpeg(tiff, [JFIF, exifApp1(other)]))).toEqual({
			...FOUND,
			dateTime: '1999-01-02T03:04:05',
		});
	});

	test('fill bytes and markers without length between segments', () => {
		const fill = new Uint8Array([0xff, 0xff, 0xff]);
		const rst = new Uint8Array([0xff, 0xd0]);
		expect(read(buildJpeg(tiff, [JFIF, fill, rst, icc]))).toEqual(FOUND);
	});

	test('an Exif APP1 after the image data starts is not looked for', () => {
		const sos = segment(0xda, new Uint8Array([1, 1, 0, 0, 0x3f, 0]));
		expect(read(buildJpeg(tiff, [JFIF, sos]))).toBeUndefined();
	});

	test('no EXIF, bad markers, bad lengths, truncation', () => {
		expect(read(buildJpeg(null))).toBeUndefined();
		expect(read(buildJpeg(tiff, [JFIF, new Uint8Array([0x12, 0x34])]))).toBeUndefined();
		expect(read(buildJpeg(tiff, [new Uint8Array([0xff, 0xe0, 0x00, 0x01])]))).toBeUndefined();
		const whole = buildJpeg(tiff);
		for (const cut of [3, 4, 10, 20, 30, 60]) expect(read(whole.subarray(0, cut))).toBeUndefined();
		expect(
			read(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x08, ...ascii('Exif\0\0')])),
		).toBeUndefined();
		// fill bytes only: the walk ends (after at most 1000 segments)
		const fill = new Uint8Array(5000).fill(0xff);
		expect(read(concat(new Uint8Array([0xff, 0xd8]), fill))).toBeUndefined();
	});
});

describe('PNG', () => {
	const idat = chunk('IDAT', new Uint8Array(20));
	const profileText = (exif: Uint8Array) => {
		const hex = Array.from(exif, (b) => b.toString(16).padStart(2, '0')).join('');
		return `\nexif\n${String(exif.length).padStart(8)}\n${hex.replace(/(.{72})/g, '$1\n')}\n`;
	};
	const withHeader = concat(ascii('Exif\0\0'), tiff);

	test('eXIf before or after IDAT, with or without an improper "Exif\\0\\0" header', () => {
		expect(read(buildPng(chunk('eXIf', tiff), idat))).toEqual(FOUND);
		expect(read(buildPng(idat, chunk('eXIf', tiff)))).toEqual(FOUND);
		expect(read(buildPng(chunk('eXIf', withHeader), idat))).toEqual(FOUND);
	});

	test('eXIf after IEND is not read', () => {
		const png = concat(buildPng(idat), chunk('eXIf', tiff));
		expect(read(png)).toBeUndefined();
	});

	test('a "Raw profile type exif" text chunk is not read, compressed or not', () => {
		const text = chunk('tEXt', ascii(`Raw profile type exif\0${profileText(withHeader)}`));
		const compressed = chunk('iTXt', ascii(`Raw profile type exif\0\x01\0en\0\0xxxx`));
		for (const c of [text, compressed]) expect(read(buildPng(c, idat))).toBeUndefined();
		expect(read(buildPng(text, chunk('eXIf', tiff)))).toEqual(FOUND);
	});

	test('a chunk length over 2^31 or a truncated chunk ends the search', () => {
		const huge = concat(new Uint8Array([0x80, 0, 0, 0]), ascii('tEXt'));
		expect(read(buildPng(huge, chunk('eXIf', tiff)))).toBeUndefined();
		const png = buildPng(idat, chunk('eXIf', tiff));
		expect(read(png.subarray(0, png.length - 30))).toBeUndefined();
	});
});
