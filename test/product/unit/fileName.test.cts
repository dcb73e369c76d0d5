import { sanitizeFilename } from 'n8n-workflow';

import {
	fileNameFromDisposition,
	fileNameFromUrl,
	MAX_FILE_NAME_BYTES,
	sanitizeFileName,
} from '../../../nodes/EventPics/helpers/fileName';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('sanitizeFileName', () => {
	it.each([
		['photo.jpg', 'photo.jpg'],
		['/var/booth/2025/photo.jpg', 'photo.jpg'],
		['C:\\Users\\booth\\IMG_0001.JPG', 'IMG_0001.JPG'],
		['  spaced name .png  ', 'spaced name .png'],
		['bad\u0000\u0007name\n.jpg', 'badname.jpg'],
		['Hochzeit Müller – Tanz 💃.heic', 'Hochzeit Müller – Tanz 💃.heic'],
		['..hidden.jpg', 'hidden.jpg'],
		['trailing.jpg...', 'trailing.jpg'],
		['folder/', ''],
	])('%p becomes %p', (input, expected) => {
		expect(sanitizeFileName(input)).toBe(expected);
	});

	it('never cuts through a multi-byte character', () => {
		const name = `${'é'.repeat(150)}${'😀'.repeat(30)}.png`;
		const safe = sanitizeFileName(name);
		expect(bytes(safe)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
		expect(safe.endsWith('.png')).toBe(true);
		expect(safe).not.toContain('\uFFFD');
		expect(Buffer.from(safe, 'utf8').toString('utf8')).toBe(safe);
		// each emoji is a surrogate pair: a lone half would fail this round trip
		expect([...safe.slice(0, -4)].every((char) => char === 'é' || char === '😀')).toBe(true);
	});
});

describe('fileNameFromDisposition: RFC 6266, filename* first', () => {
	it.each([
		['attachment; filename="a.jpg"', 'a.jpg'],
		['attachment;filename= a b.jpg ;size=3', 'a b.jpg'],
		['attachment; FILENAME="x.jpg"', 'x.jpg'],
		[
			`attachment; filename="fallback.heic"; filename*=UTF-8''Tanz%20%F0%9F%92%83.heic`,
			'Tanz 💃.heic',
		],
		// a malformed percent-encoding, or no charset part: the plain filename
		[`attachment; filename*=UTF-8''%E0%A4%A; filename="plain.jpg"`, 'plain.jpg'],
		['attachment; filename*=a.jpg; filename="b.jpg"', 'b.jpg'],
		['attachment; filename="a \\"quoted\\" name.jpg"', 'a "quoted" name.jpg'],
		['attachment; filename="a;b.jpg"', 'a;b.jpg'],
		['attachment; filename="first.jpg"; filename="second.jpg"', 'first.jpg'],
		['attachment; filename="never closed', 'never closed'],
		['attachment; filename=""', undefined],
		["attachment; filename*=UTF-8''", undefined],
		['inline', undefined],
		[undefined, undefined],
	])('%j: %j', (header, name) => {
		expect(fileNameFromDisposition(header)).toBe(name);
	});

	it('reads only the first 16 KiB of the header', () => {
		const header = (padding: number) => `attachment; ${'x'.repeat(padding)}; filename="late.jpg"`;
		expect(fileNameFromDisposition(header(16_000))).toBe('late.jpg');
		expect(fileNameFromDisposition(header(17_000))).toBeUndefined();
	});
});

test.each([
	['https://x.test/a/b/IMG%201.jpg?size=2#f', 'IMG 1.jpg'],
	['https://x.test/photos/', 'photos'],
	['https://x.test/%E0%A4%A.jpg', '%E0%A4%A.jpg'],
	['https://x.test/', undefined],
])('fileNameFromUrl(%j) is %j', (url, name) => {
	expect(fileNameFromUrl(new URL(url))).toBe(name);
});

/**
 * n8n-workflow's sanitizeFilename (n8n-workflow 2.41) does one of our jobs, the directory part; it is
 * not used at run time because n8n 2.0 and 2.1 (n8n-workflow 2.0.0, 2.1.x) do not have it. This pins
 * where the two agree and where ours differs on purpose, so a change on either side shows here.
 */
describe('sanitizeFileName next to n8n-workflow sanitizeFilename', () => {
	it.each([
		'photo.jpg',
		'/var/booth/2025/photo.jpg',
		'C:\\Users\\booth\\IMG_0001.JPG',
		'../../../etc/passwd.jpg',
		'a/b\\c/Hochzeit Müller – Tanz 💃.heic',
		'nul\u0000byte.jpg',
	])('both strip the directory part and NUL bytes of %j', (input) => {
		expect(sanitizeFileName(input)).toBe(sanitizeFilename(input));
	});

	it.each([
		// issue 9: bidi, zero-width and control characters change how a name looks
		['photo\u202egpj.exe', 'photogpj.exe', 'photo\u202egpj.exe'],
		['bo\u200both\r\n.jpg', 'booth.jpg', 'bo\u200both\r\n.jpg'],
		// a path that ends in a slash names a folder, not a file: no name (the node asks for File Name)
		['folder/', '', 'folder'],
		// no name at all is an error naming the item and the File Name option, not "untitled"
		['..', '', 'untitled'],
		// surrounding spaces and dots are trimmed (".jpg" alone would be a hidden file without extension)
		['  spaced name .png  ', 'spaced name .png', '  spaced name .png  '],
		['..hidden.jpg', 'hidden.jpg', '..hidden.jpg'],
	])('%j: ours %j, n8n-workflow %j', (input, ours, theirs) => {
		expect(sanitizeFileName(input)).toBe(ours);
		expect(sanitizeFilename(input)).toBe(theirs);
	});

	it('ours cuts a long name to MAX_FILE_NAME_BYTES, keeping its extension; n8n-workflow does not cut', () => {
		const name = `${'a'.repeat(500)}.jpeg`;
		expect(bytes(sanitizeFileName(name))).toBe(MAX_FILE_NAME_BYTES);
		expect(sanitizeFileName(name).endsWith('.jpeg')).toBe(true);
		expect(sanitizeFilename(name)).toBe(name);
	});
});
