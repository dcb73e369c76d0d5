import { extensionOf, MAX_FILE_NAME_BYTES, sanitizeFileName } from '../../../nodes/EventPics/helpers/fileName';

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
