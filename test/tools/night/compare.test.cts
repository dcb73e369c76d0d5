// The night tier's comparison of the album with the folder (compare.js).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { compareAlbum } = require('./compare');

let dir: string;
beforeAll(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-compare-test-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

function file(name: string, bytes: Buffer) {
	const at = path.join(dir, name);
	fs.writeFileSync(at, bytes);
	return at;
}

test('whole, twice, prefix, other bytes, lost, a temporary name and a stray are each counted', () => {
	const names = ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg'];
	const photos = names.map((name) => {
		const bytes = crypto.randomBytes(1000);
		return { name, path: file(`folder-${name}`, bytes), sha256: sha256(bytes), bytes };
	});
	const stored = (name: string, bytes: Buffer, i: number) => ({
		fileName: name,
		sha256: sha256(bytes),
		path: file(`stored-${i}`, bytes),
	});
	const [a, b, c, d] = photos;
	const uploads = [
		stored('a.jpg', a.bytes, 1), // once
		stored('b.jpg', b.bytes, 2), // twice
		stored('b.jpg', b.bytes, 3),
		stored('c.jpg', c.bytes.subarray(0, 400), 4), // a prefix, then whole
		stored('c.jpg', c.bytes, 5),
		stored('d.jpg.tmp', d.bytes, 6), // whole, under its temporary name
		stored('d.jpg', Buffer.from('other'), 7), // other bytes
		stored('notes.txt', Buffer.from('x'), 8), // no photo's
		// e.jpg: lost
	];
	const album = compareAlbum({ photos, uploads, tempName: (n: string) => `${n}.tmp` });
	expect(album).toMatchObject({
		photos: 5,
		once: 3,
		twice: 1,
		extraCopies: 1,
		partial: 2,
		lost: 1,
		strays: ['notes.txt'],
	});
	expect(album.perPhoto).toEqual([
		{ name: 'a.jpg', whole: 1, prefixes: 0, other: 0 },
		{ name: 'b.jpg', whole: 2, prefixes: 0, other: 0 },
		{ name: 'c.jpg', whole: 1, prefixes: 1, other: 0 },
		{ name: 'd.jpg', whole: 1, prefixes: 0, other: 1 },
		{ name: 'e.jpg', whole: 0, prefixes: 0, other: 0 },
	]);
});
