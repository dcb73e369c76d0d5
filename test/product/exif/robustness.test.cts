/** Damaged data never throws, never loops: every truncation and thousands of random corruptions of the corpus. */
import { type ByteSource, readCaptureTime } from '../../../nodes/EventPics/helpers/exif';
import { CORPUS_FILES, corpusFile } from './corpus.cts';

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

/**
 * What is wrong with one damaged input, or undefined when all is well. Plain checks in the hot loop
 * (tens of thousands of inputs), one expect per file at the end: the same rules, a fraction of the time.
 */
async function problemWith(bytes: Uint8Array): Promise<string | undefined> {
	const { source, counts } = counting(bytes);
	const result = await readCaptureTime(source);
	// bounded work: a corpus file is under 4 KB, so a few hundred reads is already generous
	if (counts.reads >= 300) return `${counts.reads} reads`;
	if (result === undefined) return undefined;
	if (!SHAPE.test(result.dateTime)) return `dateTime ${JSON.stringify(result.dateTime)}`;
	if (!['DateTimeOriginal', 'CreateDate', 'DateTime'].includes(result.tag))
		return `tag ${result.tag}`;
	if (result.offset !== undefined && !/^[+-]\d{2}:\d{2}$/.test(result.offset))
		return `offset ${result.offset}`;
	return undefined;
}

/** Runs every input; the first few problems (with the input's label) fail the test. */
async function expectNoProblems(inputs: Iterable<[label: string, bytes: Uint8Array]>) {
	const problems: string[] = [];
	let checked = 0;
	for (const [label, bytes] of inputs) {
		checked++;
		const problem = await problemWith(bytes);
		if (problem !== undefined && problems.length < 5) problems.push(`${label}: ${problem}`);
	}
	expect(problems).toEqual([]);
	return checked;
}

test.each(CORPUS_FILES)('%s cut at every length', async (name) => {
	const bytes = corpusFile(name);
	function* cuts(): Generator<[string, Uint8Array]> {
		for (let length = 0; length < bytes.length; length++)
			yield [`cut at ${length}`, bytes.subarray(0, length)];
	}
	expect(await expectNoProblems(cuts())).toBe(bytes.length);
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
		function* corruptions(): Generator<[string, Uint8Array]> {
			for (let round = 0; round < 300; round++) {
				const damaged = bytes.slice();
				for (let flips = 1 + random(4); flips > 0; flips--) {
					damaged[random(damaged.length)] = [0, 0xff, 0x7f, 0x80, random(256)][random(5)];
				}
				yield [`round ${round}`, damaged];
			}
		}
		expect(await expectNoProblems(corruptions())).toBe(300);
	},
);
