import {
	cachedTitle,
	named,
	namedList,
	parseEvents,
	searchMatcher,
} from '../../../nodes/EventPics/helpers/events';

describe('searchMatcher: the dropdowns search text', () => {
	it('matches titles and ids, ignoring case', () => {
		const matches = searchMatcher('PARTY');
		expect(matches('Summer Party 2026', 'summer-party-2026')).toBe(true);
		expect(matches('Office Opening', 'office-opening')).toBe(false);
		expect(searchMatcher(undefined)('anything')).toBe(true);
		expect(searchMatcher('')('anything')).toBe(true);
	});

	it('lower-cases the search text once per search, not once per event', () => {
		const events = Array.from({ length: 1000 }, (_, i) => [`Event ${i}`, `event-${i}`]);
		const spy = jest.spyOn(String.prototype, 'toLowerCase');
		try {
			const matches = searchMatcher('EVENT 99');
			const found = events.filter(([title, id]) => matches(title, id));
			expect(found.map(([, id]) => id)).toEqual([
				'event-99',
				...Array.from({ length: 10 }, (_, i) => `event-${990 + i}`),
			]);
			// the search text once, then each title and id the test reads: never the search text again
			const lowered = spy.mock.contexts.filter((text) => String(text) === 'EVENT 99');
			expect(lowered).toHaveLength(1);
		} finally {
			spy.mockRestore();
		}
	});

	it('a search text longer than any title or id (a megabyte pasted) matches nothing without reading the events', () => {
		const spy = jest.spyOn(String.prototype, 'toLowerCase');
		try {
			const matches = searchMatcher('a'.repeat(1024 * 1024));
			expect(matches('a'.repeat(200), 'a')).toBe(false);
			expect(spy).not.toHaveBeenCalled();
		} finally {
			spy.mockRestore();
		}
	});
});

describe('parseEvents: ids as the node takes them, titles as it shows them', () => {
	it('leaves out events and albums whose id holds an invisible character (bidi, control, zero-width)', () => {
		const events = parseEvents({
			events: [
				{
					linkId: 'good',
					title: 'Good',
					albums: [
						{ id: 'a1', title: 'A' },
						{ id: 'a\u202Eb', title: 'B' },
						{ albumId: 'x\u0000y', title: 'C' },
					],
				},
				{ linkId: 'bad\u200Bid', title: 'Zero width' },
				{ linkId: 'line\nbreak', title: 'Line break' },
			],
		});
		expect(events).toEqual([{ linkId: 'good', title: 'Good', albums: [{ id: 'a1', title: 'A' }] }]);
	});

	it('reads numbers as ids, albumId as the album id, a title cleaned and cut (else the id); leaves out the rest', () => {
		const events = parseEvents({
			events: [
				{
					linkId: 42,
					title: ' Anna\n& Ben\u202E ',
					albums: [{ albumId: 7 }, { id: 'a', title: 't'.repeat(300) }, null],
				},
				{ title: 'no id' },
				{ linkId: 'x'.repeat(1025) },
				{ linkId: 'e', albums: 'none' },
			],
		});
		expect(events).toEqual([
			{
				linkId: '42',
				title: 'Anna & Ben',
				albums: [
					{ id: '7', title: '7' },
					{ id: 'a', title: `${'t'.repeat(199)}…` },
				],
			},
			{ linkId: 'e', title: 'e', albums: [] },
		]);
		for (const body of [{}, null, { events: 'x' }, '{"events":[]}'])
			expect(parseEvents(body)).toBeUndefined();
	});
});

test('names in messages: "title" (id), the id alone when it is the title, at most ten listed', () => {
	expect(named('A\nB', 'id')).toBe('"A B" (id)');
	expect(named('x', 'x')).toBe('"x"');
	expect(named(undefined, 'x')).toBe('"x"');
	const entries = Array.from({ length: 13 }, (_, i) => ({ title: `T${i}`, id: `id${i}` }));
	expect(namedList(entries)).toBe(
		`${entries
			.slice(0, 10)
			.map((e) => `"${e.title}" (${e.id})`)
			.join(', ')} and 3 more`,
	);
	expect(cachedTitle({ cachedResultName: ' Party\n2026 ' })).toBe('Party 2026');
	expect(cachedTitle({ cachedResultName: '' })).toBeUndefined();
});
