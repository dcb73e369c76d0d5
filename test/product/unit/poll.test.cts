import type { IDataObject } from 'n8n-workflow';

import { comparePoll, MAX_PER_POLL, MAX_REMEMBERED } from '../../../nodes/EventPicsTrigger/poll';

/** What the trigger watches, as comparePoll gets it (a hash of the watch, the Base URL, the credential). */
const WATCH = 'watch-1';
const items = (...keys: string[]) => keys.map((key) => ({ key, json: { key } }));
const range = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, i) => `k${from + i}`);
const keysOf = (fresh: IDataObject[]) => fresh.map((json) => json.key);

/** Polls in turn from no memory; what each reported. */
function polls(...lists: string[][]) {
	let memory: IDataObject | undefined;
	return lists.map((list) => {
		const { fresh, next } = comparePoll(memory, WATCH, items(...list));
		memory = next;
		return keysOf(fresh);
	});
}

describe('the trigger’s memory of what it has seen', () => {
	it('first poll: records everything, reports nothing; later polls report what is new, in list order, once', () => {
		expect(polls(['a', 'b'], ['c', 'a', 'd', 'c', 'b'], ['a', 'b', 'c', 'd'])).toEqual([
			[],
			['c', 'd'],
			[],
		]);
	});

	it('an item missing from one poll is not new when it returns', () => {
		expect(polls(['a', 'b', 'c'], ['a', 'c'], ['a', 'b', 'c'])).toEqual([[], [], []]);
	});

	it('a list of 200, then 100 of them, then the 200 again: nothing the second time the 100 come back', () => {
		expect(polls(range(0, 200), range(0, 100), range(0, 200))).toEqual([[], [], []]);
		expect(polls([], range(0, 100), range(0, 200), range(100, 200))).toEqual([
			[],
			range(0, 100),
			range(100, 200),
			[],
		]);
	});

	it(`reports at most ${MAX_PER_POLL} per poll, the rest at the next polls`, () => {
		expect(polls(['a'], ['a', ...range(0, 150)], ['a', ...range(0, 150)], range(0, 150))).toEqual([
			[],
			range(0, 100),
			range(100, 150),
			[],
		]);
	});

	it('an empty list keeps the memory; an empty memory makes every listed item new', () => {
		const { next } = comparePoll(undefined, WATCH, items('a', 'b'));
		expect(comparePoll(next, WATCH, [])).toEqual({ fresh: [], next });
		expect(polls(['a', 'b'], [], ['a', 'b', 'c'])).toEqual([[], [], ['c']]);
		expect(polls([], ['a', 'b', 'c'])).toEqual([[], ['a', 'b', 'c']]);
	});

	it('another account’s list (none of at least two known items in it, at least two listed) is recorded, not reported', () => {
		expect(polls(['a', 'b'], ['x', 'y'], ['x', 'y', 'z'])).toEqual([[], [], ['z']]);
		// one item known, or one listed, or one of the known ones left: new items are new
		expect(polls(['a'], ['x', 'y'])).toEqual([[], ['x', 'y']]);
		expect(polls(['a', 'b'], ['x'])).toEqual([[], ['x']]);
		expect(polls(['a', 'b'], ['b', 'x', 'y'])).toEqual([[], ['x', 'y']]);
	});

	it('another watch starts over: recorded, not reported', () => {
		const { next } = comparePoll(undefined, WATCH, items('a'));
		const other = comparePoll(next, 'watch-2', items('a', 'b'));
		expect(other.fresh).toEqual([]);
		expect(comparePoll(other.next, 'watch-2', items('a', 'b', 'c')).fresh).toEqual([{ key: 'c' }]);
	});

	it(`remembers at most ${MAX_REMEMBERED} items, forgetting the oldest`, () => {
		const many = range(0, MAX_REMEMBERED + 5);
		// of a longer list only its last MAX_REMEMBERED items are watched: the first five never are
		expect(polls(many, many, [...many, 'new'], ['k0', 'k1', 'k5', 'k6'])).toEqual([
			[],
			[],
			['new'],
			['k0', 'k1', 'k5'],
		]);
		// and the memory does not grow past them
		const first = comparePoll(undefined, WATCH, items(...many)).next;
		const grown = comparePoll(first, WATCH, items('new', ...range(0, 200))).next;
		expect(String(grown.seen)).toHaveLength(String(first.seen).length);
	});

	it.each([
		['no object', 'x'],
		['seen not text', { watch: WATCH, seen: ['a'] }],
		['seen of a length that is no whole number of keys', { watch: WATCH, seen: 'abc' }],
		['characters a key never has', { watch: WATCH, seen: 'abc def+/==' }],
	])('a memory of %s is no memory: the list is recorded, not reported', (_, memory) => {
		const { fresh, next } = comparePoll(memory as unknown as IDataObject, WATCH, items('a', 'b'));
		expect(fresh).toEqual([]);
		expect(comparePoll(next, WATCH, items('a', 'b', 'c')).fresh).toEqual([{ key: 'c' }]);
	});
});
