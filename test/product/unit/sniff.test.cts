import { contentMismatch, mimeTypeMismatch, sniffMediaType, sniffText } from '../../../nodes/EventPics/helpers/sniff';

const bytes = (...parts: Array<number[] | string>) =>
	Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('sniffMediaType', () => {
	it.each([
		['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
		['PNG', bytes([0x89], 'PNG\r\n\x1a\n'), 'image/png'],
		['GIF', bytes('GIF89a'), 'image/gif'],
		['WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBP'), 'image/webp'],
		['TIFF', bytes('II*\0'), 'image/tiff'],
		['TIFF', bytes('MM\0*'), 'image/tiff'],
		['HEIF (heic)', bytes([0, 0, 0, 24], 'ftypheic'), 'image/heic'],
		['AVIF', bytes([0, 0, 0, 24], 'ftypavif'), 'image/avif'],
		['QuickTime', bytes([0, 0, 0, 20], 'ftypqt  '), 'video/quicktime'],
		['MP4 (isom)', bytes([0, 0, 0, 32], 'ftypisom'), 'video/mp4'],
		['PDF', bytes('%PDF-1.7'), 'application/pdf'],
	])('recognises %s', (label, data, type) => {
		const sniffed = sniffMediaType(data);
		expect(sniffed?.label).toBe(label);
		expect(sniffed?.types).toContain(type);
	});

	it('says nothing of unknown or too short data', () => {
		expect(sniffMediaType(bytes('hello world'))).toBeUndefined();
		expect(sniffMediaType(new Uint8Array(0))).toBeUndefined();
		expect(sniffMediaType(bytes([0xff, 0xd8]))).toBeUndefined();
	});
});

describe('mismatch warnings', () => {
	it('warns when the bytes are another format than the name says', () => {
		expect(contentMismatch(bytes([0x89], 'PNG\r\n\x1a\n'), 'image/jpeg', 'a.jpg')).toBe(
			'"a.jpg" is sent as image/jpeg (from its name), but its bytes are PNG (image/png). Rename the file with the right extension if the album shows it wrong.',
		);
	});
	it('accepts the names of one container family and unknown bytes', () => {
		expect(contentMismatch(bytes([0, 0, 0, 24], 'ftypmif1'), 'image/heif', 'a.heif')).toBeUndefined();
		expect(contentMismatch(bytes([0, 0, 0, 24], 'ftypmp42'), 'video/x-m4v', 'a.m4v')).toBeUndefined();
		expect(contentMismatch(bytes('MM\0*'), 'image/x-canon-cr2', 'a.cr2')).toBeUndefined();
		expect(contentMismatch(bytes('no signature here'), 'image/jpeg', 'a.jpg')).toBeUndefined();
		expect(contentMismatch(bytes([0xff, 0xd8, 0xff]), 'application/octet-stream', 'a.bin')).toBeUndefined();
	});
	it('compares n8n\'s MIME type, ignoring parameters, case and octet-stream', () => {
		expect(mimeTypeMismatch('image/JPEG; charset=binary', 'image/jpeg', 'a.jpg')).toBeUndefined();
		expect(mimeTypeMismatch('application/octet-stream', 'image/jpeg', 'a.jpg')).toBeUndefined();
		expect(mimeTypeMismatch(undefined, 'image/jpeg', 'a.jpg')).toBeUndefined();
		expect(mimeTypeMismatch('image/png', 'image/jpeg', 'a.jpg')).toBe(
			'"a.jpg" is sent as image/jpeg (from its name), but the binary\'s MIME type is image/png.',
		);
	});
});

describe('the extension a format is named with', () => {
	it.each([
		[bytes([0xff, 0xd8, 0xff, 0xe1]), 'JPEG', 'jpg'],
		[bytes([0x89], 'PNG\r\n\x1a\n'), 'PNG', 'png'],
		[bytes('GIF87a'), 'GIF', 'gif'],
		[bytes('RIFF', [0, 0, 0, 0], 'WEBP'), 'WebP', 'webp'],
		[bytes([0, 0, 0, 24], 'ftypheic'), 'HEIF (heic)', 'heic'],
		[bytes([0, 0, 0, 24], 'ftypmif1'), 'HEIF (mif1)', 'heif'],
		[bytes([0, 0, 0, 24], 'ftyphevc'), 'HEIF (hevc)', 'heics'],
		[bytes([0, 0, 0, 24], 'ftypavif'), 'AVIF', 'avif'],
		[bytes('II*\0', [8, 0, 0, 0]), 'TIFF', 'tif'],
		[bytes('II*\0', [16, 0, 0, 0], 'CR', [2, 0]), 'Canon CR2', 'cr2'],
		[bytes('IIRO', [8, 0, 0, 0]), 'Olympus ORF', 'orf'],
		[bytes('IIU\0', [8, 0, 0, 0]), 'Panasonic RW2', 'rw2'],
		[bytes('FUJIFILMCCD-RAW 0201'), 'Fujifilm RAF', 'raf'],
		[bytes([0, 0, 0, 24], 'ftypcrx '), 'Canon CR3', 'cr3'],
		[bytes([0, 0, 0, 32], 'ftypisom'), 'MP4 (isom)', 'mp4'],
		[bytes([0, 0, 0, 32], 'ftypM4V '), 'MP4 (M4V)', 'm4v'],
		[bytes([0, 0, 0, 32], 'ftyp3gp5'), 'MP4 (3gp5)', '3gp'],
		[bytes([0, 0, 0, 20], 'ftypqt  '), 'QuickTime', 'mov'],
		[bytes('RIFF', [0, 0, 0, 0], 'AVI '), 'AVI', 'avi'],
		[bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm'), 'WebM', 'webm'],
		[bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88], 'matroska'), 'Matroska', 'mkv'],
		[bytes([0, 0, 1, 0xba, 0x44]), 'MPEG', 'mpg'],
	])('%#: %s', (data, label, extension) => {
		expect(sniffMediaType(data)).toMatchObject({ label, extension });
	});
});

describe('sniffText: text sent as a photo', () => {
	it.each([
		['<!DOCTYPE html><html><head><title>Sign in</title>', 'HTML'],
		['\uFEFF  \n<html lang="en"><body>Login required', 'HTML'],
		['<?xml version="1.0"?><Error><Code>AccessDenied', 'XML or markup'],
		['{"error":"not found","status":404}', 'JSON'],
		['Access denied. Please log in first.', 'text'],
		['Grüße aus der Fotobox, leider kein Bild', 'text'],
	])('%s is %s', (text, label) => {
		expect(sniffText(Buffer.from(text, 'utf8').subarray(0, 64))).toBe(label);
	});

	it('says nothing of binary data, known formats and a few bytes', () => {
		expect(sniffText(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF some more text here'))).toBeUndefined();
		expect(sniffText(bytes('GIF89a', 'followed by only text!'))).toBeUndefined();
		expect(sniffText(bytes('abc', [0], 'def ghi jkl'))).toBeUndefined();
		expect(sniffText(bytes([0xc3, 0x28], 'invalid utf-8 here'))).toBeUndefined();
		expect(sniffText(bytes('a'))).toBeUndefined();
	});
});
