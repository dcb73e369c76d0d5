import {
	capText,
	oneLine,
	shownDuration,
	shownSize,
	trimRuns,
} from '../../../nodes/EventPics/helpers/text';

describe('text as messages show it', () => {
	it('oneLine: breaks as spaces, invisible characters removed, spaces folded, cut with "…" between characters', () => {
		expect(oneLine('  a\n\tb\u202E  c ', 10)).toBe('a b c');
		expect(oneLine('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
		expect(oneLine('abcdefgh😀😀', 10)).toBe('abcdefgh…');
		// at most four times `max` is read: what lies further never shows
		expect(oneLine(`${' '.repeat(40)}hidden`, 10)).toBe('');
	});

	it('capText says how much was left out; trimRuns trims one character at either end', () => {
		expect(capText('abcdef', 6)).toBe('abcdef');
		expect(capText('abcdef', 2)).toBe('ab… (4 more characters not shown)');
		expect(trimRuns('..a.b..', '.')).toBe('a.b');
		expect(trimRuns('..a.b..', '.', false)).toBe('..a.b');
	});

	it.each([
		[2000, '2 s'],
		[119_400, '119 s'],
		[360_000, '6 min'],
		[380_000, '6 min 20 s'],
	])('shownDuration(%i) is %s', (ms, text) => expect(shownDuration(ms)).toBe(text));

	it.each([
		[1023, '1023 bytes'],
		[1536, '1.5 KiB'],
		[3 * 1024 * 1024, '3 MiB'],
	])('shownSize(%i) is %s', (bytes, text) => expect(shownSize(bytes)).toBe(text));
});
