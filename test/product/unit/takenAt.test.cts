import { DateTime, Settings } from 'luxon';

import { toEpochMs } from '../../../nodes/EventPics/helpers/exif';
import {
	isoInZone,
	parseTakenAt,
	wallClockToEpochMs,
} from '../../../nodes/EventPics/helpers/takenAt';

const ZONE = 'Europe/Berlin';

describe('parseTakenAt', () => {
	it.each([
		[1750437000000, 1750437000000],
		['1750437000000', 1750437000000],
		[1750437000, 1750437000000],
		['1750437000', 1750437000000],
		[1750437000.5, 1750437000500],
		// whole milliseconds are sent
		[1750437000.1234, 1750437000123],
		['2025-06-20T16:30:00Z', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-06-20T18:30:00+02:00', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-06-20T18:30:00.250+0200', Date.UTC(2025, 5, 20, 16, 30, 0, 250)],
		// no offset: the workflow's time zone (Berlin is UTC+2 in June, UTC+1 in January)
		['2025-06-20T18:30:00', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-01-20 18:30', Date.UTC(2025, 0, 20, 17, 30)],
		['2025-01-20', Date.UTC(2025, 0, 19, 23, 0)],
		// what luxon reads as ISO 8601 or SQL-style text
		['2025-06-20 18:30:00+02:00', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-06-20T18:30:00,5z', Date.UTC(2025, 5, 20, 18, 30, 0, 500)],
		['20250620T183000', Date.UTC(2025, 5, 20, 16, 30)],
		// a Date and a Luxon-like date
		[new Date(Date.UTC(2025, 5, 20)), Date.UTC(2025, 5, 20)],
		[{ toMillis: () => 1750437000123 }, 1750437000123],
		// empty is not given
		[undefined, undefined],
		[null, undefined],
		['', undefined],
		['   ', undefined],
	])('reads %p as %p', (input, expected) => {
		expect(parseTakenAt(input, ZONE)).toEqual({ ok: true, value: expected });
	});

	it.each([
		['yesterday', '"yesterday" is not a date'],
		['2025-02-30T10:00:00', '"2025-02-30T10:00:00" is not a valid date and time'],
		['2025-06-20T25:00:00', '"2025-06-20T25:00:00" is not a valid date and time'],
		[-5, '-5 is not a positive Unix timestamp'],
		[0, '0 is not a positive Unix timestamp'],
		[true, 'it is neither a date nor a timestamp'],
		// n8n-workflow's tryToParseDateTime falls back to Date.parse: it takes 30 February as 2 March
		// and reads "June 20, 2025 18:30" in the machine's zone, not the workflow's. Refused here.
		['June 20, 2025 18:30', '"June 20, 2025 18:30" is not a date'],
		['2025-02-30 10:00', '"2025-02-30 10:00" is not a valid date and time'],
	])('refuses %p', (input, reason) => {
		expect(parseTakenAt(input, ZONE)).toEqual({ ok: false, reason });
	});

	it('uses the given zone, not the machine zone, and says so when it is unknown', () => {
		expect(parseTakenAt('2025-06-20T18:30:00', 'America/New_York')).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 22, 30),
		});
		expect(parseTakenAt('2025-06-20T18:30:00', 'UTC')).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 18, 30),
		});
		expect(parseTakenAt('2025-06-20T18:30:00', 'Mars/Olympus_Mons')).toEqual({
			ok: false,
			reason: 'the workflow\'s time zone "Mars/Olympus_Mons" is unknown',
		});
	});
});

const at = (zone: string, year: number, month: number, day: number, hour: number, minute = 0) =>
	wallClockToEpochMs(DateTime.fromObject({ year, month, day, hour, minute }, { zone }));

/** Luxon's own choice in a repeated hour follows the offset in force "now": run in both seasons. */
const SEASONS: Array<[string, number]> = [
	['in winter', Date.UTC(2026, 0, 15, 12)],
	['in summer', Date.UTC(2026, 6, 15, 12)],
];

describe.each(SEASONS)('wall-clock time of a zone to an instant, run %s', (_season, now) => {
	const realNow = Settings.now;
	beforeAll(() => (Settings.now = () => now));
	afterAll(() => (Settings.now = realNow));

	it('reads the wall clock with the offset of that date', () => {
		expect(at('Europe/Berlin', 2025, 1, 1, 1)).toBe(Date.UTC(2025, 0, 1, 0));
		expect(at('Europe/Berlin', 2025, 7, 1, 2)).toBe(Date.UTC(2025, 6, 1, 0));
		expect(at('Asia/Kolkata', 2025, 7, 1, 5, 30)).toBe(Date.UTC(2025, 6, 1, 0));
		expect(at('UTC', 2025, 7, 1, 0)).toBe(Date.UTC(2025, 6, 1, 0));
		expect(at('Europe/Berlin', 2025, 7, 1, 12)).toBe(Date.UTC(2025, 6, 1, 10));
		expect(at('America/Los_Angeles', 2025, 7, 1, 12)).toBe(Date.UTC(2025, 6, 1, 19));
	});

	it('takes the earlier instant when clocks go back (the repeated hour)', () => {
		// Berlin, 26 Oct 2025 and 25 Oct 2026: 02:30 happens twice, first at 00:30 UTC (CEST), then 01:30 UTC (CET)
		expect(at('Europe/Berlin', 2025, 10, 26, 2, 30)).toBe(Date.UTC(2025, 9, 26, 0, 30));
		expect(at('Europe/Berlin', 2026, 10, 25, 2, 30)).toBe(Date.UTC(2026, 9, 25, 0, 30));
		// the hour after the repeated one has one instant only
		expect(at('Europe/Berlin', 2026, 10, 25, 3, 30)).toBe(Date.UTC(2026, 9, 25, 2, 30));
		expect(at('Europe/Berlin', 2026, 10, 25, 1, 30)).toBe(Date.UTC(2026, 9, 24, 23, 30));
	});

	it('moves a time that does not exist (the spring gap) forward by the gap', () => {
		// Berlin, 30 Mar 2025 and 29 Mar 2026: 02:30 does not exist; it becomes 03:30 CEST = 01:30 UTC
		expect(at('Europe/Berlin', 2025, 3, 30, 2, 30)).toBe(Date.UTC(2025, 2, 30, 1, 30));
		expect(at('Europe/Berlin', 2026, 3, 29, 2, 30)).toBe(Date.UTC(2026, 2, 29, 1, 30));
	});

	it('Taken At Value and the EXIF date follow the same rule', () => {
		const zone = 'Europe/Berlin';
		const later = Date.UTC(2026, 10, 1);
		const repeated = Date.UTC(2026, 9, 25, 0, 30);
		const gap = Date.UTC(2026, 2, 29, 1, 30);
		for (const [text, value] of [
			['2026-10-25T02:30:00', repeated],
			['2026-10-25 02:30', repeated],
			['2026-03-29T02:30', gap],
			// an offset written with the time says which of the two it is
			['2026-10-25T02:30:00+01:00', Date.UTC(2026, 9, 25, 1, 30)],
		] as const)
			expect(parseTakenAt(text, zone, later)).toEqual({ ok: true, value });
		expect(toEpochMs({ dateTime: '2026-10-25T02:30:00' }, zone)).toBe(repeated);
		expect(toEpochMs({ dateTime: '2026-03-29T02:30:00' }, zone)).toBe(gap);
	});

	it('has no instant for an impossible date or an unknown zone', () => {
		expect(at('Europe/Berlin', 2026, 2, 29, 12)).toBeUndefined();
		expect(at('Mars/Olympus_Mons', 2026, 1, 1, 12)).toBeUndefined();
	});
});

test("isoInZone: an instant with the zone's offset, milliseconds only when there are some; UTC for an unknown zone", () => {
	expect(isoInZone(Date.UTC(2026, 5, 20, 16, 30, 5), 'Europe/Berlin')).toBe(
		'2026-06-20T18:30:05+02:00',
	);
	expect(isoInZone(Date.UTC(2026, 0, 20, 16, 30, 5, 250), 'Europe/Berlin')).toBe(
		'2026-01-20T17:30:05.250+01:00',
	);
	expect(isoInZone(Date.UTC(2026, 5, 20, 16, 30), 'Mars/Olympus_Mons')).toBe(
		'2026-06-20T16:30:00Z',
	);
});
