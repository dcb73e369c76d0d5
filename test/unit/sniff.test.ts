import { contentMismatch, mimeTypeMismatch, sniffMediaType } from '../../nodes/EventPics/helpers/sniff';

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
