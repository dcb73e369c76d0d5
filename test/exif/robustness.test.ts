/** Damaged data never throws, never loops: every truncation and thousands of random corruptions of the corpus. */
import { type ByteSource, readCaptureTime } from '../../nodes/EventPics/helpers/exif';
import { CORPUS_FILES, corpusFile } from './corpus';

const SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/;

/** A buffer source that counts reads and the bytes it handed out. */
function counting(bytes: Uint8Array) {
	const counts = { reads: 0, bytes: 0 };
	const source: ByteSource = {
		read: async (offset, length) => {
			counts.reads++;
			const data = bytes.subarray(Math.max(0, offset), Math.max(0, offset + length));
			counts.bytes += data.length;
			return data;
		},
	};
	return { source, counts };
}

async function check(bytes: Uint8Array) {
	const { source, counts } = counting(bytes);
	const result = await readCaptureTime(source);
	if (result !== undefined) {
		expect(result.dateTime).toMatch(SHAPE);
		expect(['DateTimeOriginal', 'CreateDate', 'DateTime']).toContain(result.tag);
		if (result.offset !== undefined) expect(result.offset).toMatch(/^[+-]\d{2}:\d{2}$/);
	}
	// bounded work: a corpus file is under 4 KB, so a few hundred reads is already generous
	expect(counts.reads).toBeLessThan(300);
	return result;
}

test.each(CORPUS_FILES)('%s cut at every length', async (name) => {
	const bytes = corpusFile(name);
	for (let length = 0; length < bytes.length; length++) await check(bytes.subarray(0, length));
});

test.each(CORPUS_FILES.filter((name) => corpusFile(name).length > 0))(
	'%s with 300 random corruptions',
	async (name) => {
		const bytes = corpusFile(name);
		let seed = name.length * 7919;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return Math.floor((seed / 2 ** 31) * n);
		};
		for (let round = 0; round < 300; round++) {
			const damaged = bytes.slice();
			for (let flips = 1 + random(4); flips > 0; flips--) {
				damaged[random(damaged.length)] = [0, 0xff, 0x7f, 0x80, random(256)][random(5)];
			}
			await check(damaged);
		}
	},
);
