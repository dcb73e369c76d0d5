import { DateTime, Settings } from 'luxon';

import { parseTakenAt } from '../../../nodes/EventPics/helpers/takenAt';
import { toEpochMs } from '../../../nodes/EventPics/helpers/exif/datetime';
import { wallClockToEpochMs } from '../../../nodes/EventPics/helpers/timeZone';

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
		expect(parseTakenAt('2026-10-25T02:30:00', zone, later)).toEqual({
			ok: true,
			value: Date.UTC(2026, 9, 25, 0, 30),
		});
		expect(parseTakenAt('2026-10-25 02:30', zone, later)).toEqual({
			ok: true,
			value: Date.UTC(2026, 9, 25, 0, 30),
		});
		expect(parseTakenAt('2026-03-29T02:30', zone, later)).toEqual({
			ok: true,
			value: Date.UTC(2026, 2, 29, 1, 30),
		});
		expect(toEpochMs({ dateTime: '2026-10-25T02:30:00' }, zone)).toBe(Date.UTC(2026, 9, 25, 0, 30));
		expect(toEpochMs({ dateTime: '2026-03-29T02:30:00' }, zone)).toBe(Date.UTC(2026, 2, 29, 1, 30));
		// an offset written with the time says which of the two it is
		expect(parseTakenAt('2026-10-25T02:30:00+01:00', zone, later)).toEqual({
			ok: true,
			value: Date.UTC(2026, 9, 25, 1, 30),
		});
	});

	it('has no instant for an impossible date or an unknown zone', () => {
		expect(at('Europe/Berlin', 2026, 2, 29, 12)).toBeUndefined();
		expect(at('Mars/Olympus_Mons', 2026, 1, 1, 12)).toBeUndefined();
	});
});
