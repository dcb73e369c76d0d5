import { sanitizeFilename } from 'n8n-workflow';

import {
	extensionOf,
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

	it('cuts a long name to the byte limit and keeps the extension', () => {
		const name = `${'a'.repeat(500)}.jpeg`;
		const safe = sanitizeFileName(name);
		expect(bytes(safe)).toBe(MAX_FILE_NAME_BYTES);
		expect(safe.endsWith('.jpeg')).toBe(true);
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

describe('extensionOf', () => {
	it.each([
		['a.JPG', 'jpg'],
		['archive.tar.gz', 'gz'],
		['noext', ''],
		['.jpg', ''],
		['dot.', ''],
	])('%p -> %p', (name, ext) => expect(extensionOf(name)).toBe(ext));
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

	it('ours keeps names within MAX_FILE_NAME_BYTES; n8n-workflow does not cut', () => {
		const name = `${'a'.repeat(500)}.jpeg`;
		expect(bytes(sanitizeFileName(name))).toBe(MAX_FILE_NAME_BYTES);
		expect(sanitizeFilename(name)).toBe(name);
	});
});
