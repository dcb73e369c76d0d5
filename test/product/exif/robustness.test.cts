/**
 * Damaged data never throws, never loops, and a date read from it has the shape of one. `npm run test:field` (test/jest.config.js) tries every
 * truncation and 300 random corruptions of each corpus file; `npm test` tries a sample of the same
 * inputs: the first and last 64 cuts, every 16th cut between them, and 30 corruptions.
 */
import { readCaptureTime } from '../../../nodes/EventPics/helpers/exif';
import { CORPUS_FILES, corpusFile } from './corpus.cts';

const FIELD = (globalThis as { EVENTPICS_FIELD?: boolean }).EVENTPICS_FIELD === true;
const CORRUPTIONS = FIELD ? 300 : 30;
/** Whether the cut at `length` of `size` bytes is tried in this tier. */
const tried = (length: number, size: number) =>
	FIELD || length < 64 || length >= size - 64 || length % 16 === 0;

const SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/;

/**
 * What is wrong with one damaged input, or undefined when all is well. Plain checks in the hot loop
 * (tens of thousands of inputs), one expect per file at the end: the same rules, a fraction of the time.
 */
function problemWith(bytes: Uint8Array): string | undefined {
	const result = readCaptureTime(bytes);
	if (result === undefined) return undefined;
	if (!SHAPE.test(result.dateTime)) return `dateTime ${JSON.stringify(result.dateTime)}`;
	if (!['DateTimeOriginal', 'CreateDate', 'DateTime'].includes(result.tag))
		return `tag ${result.tag}`;
	if (result.offset !== undefined && !/^[+-]\d{2}:\d{2}$/.test(result.offset))
		return `offset ${result.offset}`;
	return undefined;
}

/** Runs every input; the first few problems (with the input's label) fail the test. */
function expectNoProblems(inputs: Iterable<[label: string, bytes: Uint8Array]>) {
	const problems: string[] = [];
	let checked = 0;
	for (const [label, bytes] of inputs) {
		checked++;
		const problem = problemWith(bytes);
		if (problem !== undefined && problems.length < 5) problems.push(`${label}: ${problem}`);
	}
	expect(problems).toEqual([]);
	return checked;
}

test.each(CORPUS_FILES)(`%s cut at ${FIELD ? 'every length' : 'a sample of lengths'}`, (name) => {
	const bytes = corpusFile(name);
	const lengths = Array.from({ length: bytes.length }, (_, length) => length).filter((length) =>
		tried(length, bytes.length),
	);
	function* cuts(): Generator<[string, Uint8Array]> {
		for (const length of lengths) yield [`cut at ${length}`, bytes.subarray(0, length)];
	}
	expect(expectNoProblems(cuts())).toBe(lengths.length);
});

test.each(CORPUS_FILES.filter((name) => corpusFile(name).length > 0))(
	`%s with ${CORRUPTIONS} random corruptions`,
	(name) => {
		const bytes = corpusFile(name);
		let seed = name.length * 7919;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return Math.floor((seed / 2 ** 31) * n);
		};
		function* corruptions(): Generator<[string, Uint8Array]> {
			for (let round = 0; round < CORRUPTIONS; round++) {
				const damaged = bytes.slice();
				for (let flips = 1 + random(4); flips > 0; flips--) {
					damaged[random(damaged.length)] = [0, 0xff, 0x7f, 0x80, random(256)][random(5)];
				}
				yield [`round ${round}`, damaged];
			}
		}
		expect(expectNoProblems(corruptions())).toBe(CORRUPTIONS);
	},
);
