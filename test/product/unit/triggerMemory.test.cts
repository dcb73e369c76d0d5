import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	comparePoll,
	hashKey,
	MAX_REMEMBERED,
	readMemory,
	writeMemory,
} from '../../../nodes/EventPicsTrigger/poll/memory';
import { pollPolicy } from '../../../nodes/EventPicsTrigger/poll/poll';
import type { Watched } from '../../../nodes/EventPicsTrigger/poll/watched';

const items = (...keys: string[]): Watched[] => keys.map((key) => ({ key, json: { key } }));
const keysOf = (watched: Watched[]) => watched.map((item) => item.key);
const WATCH = hashKey('watch');

/** The memory after a first poll of `keys`. */
const after = (...keys: string[]) => comparePoll(undefined, WATCH, items(...keys)).next;

describe('the trigger’s memory (pure)', () => {
	it('hashes keys to 11 base64url characters', () => {
		expect(hashKey('event\u0000wedding-anna-ben')).toMatch(/^[\w-]{11}$/);
		expect(hashKey('a')).not.toBe(hashKey('b'));
		expect(hashKey('x'.repeat(100_000))).toHaveLength(11);
	});

	it('first poll: records everything, nothing is new', () => {
		const { fresh, next } = comparePoll(undefined, WATCH, items('a', 'b'));
		expect(fresh).toEqual([]);
		expect(next).toEqual({ watch: WATCH, seen: hashKey('a') + hashKey('b') });
	});

	it('later polls: what was not listed last time is new, in list order, once per key', () => {
		const { fresh, next } = comparePoll(after('a', 'b'), WATCH, items('c', 'a', 'd', 'c', 'b'));
		expect(keysOf(fresh)).toEqual(['c', 'd']);
		expect(next.seen).toBe(['c', 'a', 'd', 'b'].map(hashKey).join(''));
	});

	it('a vanished item is forgotten; back again it is new', () => {
		const gone = comparePoll(after('a', 'b', 'c'), WATCH, items('a', 'c'));
		expect(gone.fresh).toEqual([]);
		expect(keysOf(comparePoll(gone.next, WATCH, items('a', 'b', 'c')).fresh)).toEqual(['b']);
	});

	it('another watch starts over', () => {
		const { fresh, next } = comparePoll(after('a'), hashKey('other'), items('a', 'b'));
		expect(fresh).toEqual([]);
		expect(next.watch).toBe(hashKey('other'));
	});

	it('an empty list keeps the memory; an empty memory makes every listed item new', () => {
		const memory = after('a', 'b');
		expect(comparePoll(memory, WATCH, [])).toEqual({ fresh: [], next: memory });
		expect(keysOf(comparePoll(after(), WATCH, items('a', 'b', 'c')).fresh)).toEqual([
			'a',
			'b',
			'c',
		]);
	});

	it('a list that shares nothing with a memory of two or more, of two or more items, is recorded, not new', () => {
		expect(comparePoll(after('a', 'b'), WATCH, items('x', 'y')).fresh).toEqual([]);
		expect(keysOf(comparePoll(after('a'), WATCH, items('x', 'y')).fresh)).toEqual(['x', 'y']);
		expect(keysOf(comparePoll(after('a', 'b'), WATCH, items('x')).fresh)).toEqual(['x']);
		expect(keysOf(comparePoll(after('a', 'b'), WATCH, items('b', 'x', 'y')).fresh)).toEqual([
			'x',
			'y',
		]);
	});

	it('watches at most the last MAX_REMEMBERED items of the list', () => {
		const many = Array.from({ length: MAX_REMEMBERED + 5 }, (_, n) => `k${n}`);
		const first = comparePoll(undefined, WATCH, items(...many));
		expect(first.next.seen).toHaveLength(MAX_REMEMBERED * 11);
		const grown = comparePoll(first.next, WATCH, items(...many, 'new'));
		expect(keysOf(grown.fresh)).toEqual(['new']);
		expect(grown.next.seen).toHaveLength(MAX_REMEMBERED * 11);
		// the five oldest were never watched, so they are never new
		expect(
			comparePoll(grown.next, WATCH, items('k0', 'k1', ...many.slice(6), 'new')).fresh,
		).toEqual([]);
	});

	it('reads back what it wrote, as a new object n8n sees change', () => {
		const staticData: IDataObject = {};
		const memory = after('a', 'b');
		writeMemory(staticData, memory);
		expect(readMemory(staticData)).toEqual(memory);
		const first = staticData.eventPicsTriggerV1;
		writeMemory(staticData, memory);
		expect(staticData.eventPicsTriggerV1).not.toBe(first);
	});

	it.each([
		['nothing', {}],
		['not an object', { eventPicsTriggerV1: 'x' }],
		['a watch of another length', { eventPicsTriggerV1: { watch: 'abc', seen: '' } }],
		['seen not a string', { eventPicsTriggerV1: { watch: WATCH, seen: ['a'] } }],
		[
			'seen of a length that is no whole number of keys',
			{ eventPicsTriggerV1: { watch: WATCH, seen: 'abc' } },
		],
		['characters a hash never has', { eventPicsTriggerV1: { watch: WATCH, seen: 'abc def+/==' } }],
		[
			'more than MAX_REMEMBERED keys',
			{ eventPicsTriggerV1: { watch: WATCH, seen: 'A'.repeat((MAX_REMEMBERED + 1) * 11) } },
		],
	])('counts static data with %s as no memory', (_, staticData) => {
		expect(readMemory(staticData as IDataObject)).toBeUndefined();
	});
});

describe('the poll’s retry policy', () => {
	const ctx = (budget?: number) =>
		({
			getPollBudgetMs: budget === undefined ? undefined : () => budget,
		}) as unknown as IPollFunctions;

	it('3 tries of at most 30 s each and 15 s of waits: 105 s, within n8n’s 5 minutes', () => {
		expect(pollPolicy(ctx())).toMatchObject({
			maxAttempts: 3,
			maxTotalWaitMs: 15_000,
			timeoutMs: 30_000,
		});
		expect(pollPolicy(ctx(300_000)).timeoutMs).toBe(30_000);
	});

	it('shorter calls and waits when n8n gives the poll less time: all within it', () => {
		expect(pollPolicy(ctx(60_000))).toMatchObject({ maxTotalWaitMs: 15_000, timeoutMs: 15_000 });
		expect(pollPolicy(ctx(20_000))).toMatchObject({ maxTotalWaitMs: 5_000, timeoutMs: 5_000 });
		for (const budget of [8_000, 20_000, 60_000, 300_000]) {
			const policy = pollPolicy(ctx(budget));
			expect(policy.maxAttempts * policy.timeoutMs + policy.maxTotalWaitMs).toBeLessThanOrEqual(budget);
		}
		expect(pollPolicy(ctx(0)).timeoutMs).toBe(30_000);
	});
});
