import { localToEpochMs, zoneOffsetMs } from '../../../nodes/EventPics/helpers/timeZone';

const local = (year: number, month: number, day: number, hour: number, minute = 0) => ({
	year,
	month,
	day,
	hour,
	minute,
	second: 0,
	millisecond: 0,
});

describe('time zones without a library', () => {
	it('finds the offset of a zone at an instant', () => {
		expect(zoneOffsetMs(Date.UTC(2025, 0, 1), 'Europe/Berlin')).toBe(3_600_000);
		expect(zoneOffsetMs(Date.UTC(2025, 6, 1), 'Europe/Berlin')).toBe(7_200_000);
		expect(zoneOffsetMs(Date.UTC(2025, 6, 1), 'Asia/Kolkata')).toBe(19_800_000);
		expect(zoneOffsetMs(Date.UTC(2025, 6, 1, 0, 0, 0, 999), 'UTC')).toBe(0);
	});

	it('turns a wall-clock time of a zone into an instant', () => {
		expect(localToEpochMs(local(2025, 7, 1, 12), 'Europe/Berlin')).toBe(Date.UTC(2025, 6, 1, 10));
		expect(localToEpochMs(local(2025, 7, 1, 12), 'America/Los_Angeles')).toBe(Date.UTC(2025, 6, 1, 19));
	});

	it('takes the earlier instant when clocks go back (overlap)', () => {
		// Berlin, 26 Oct 2025: 02:30 happens twice, first at 00:30 UTC (CEST), then 01:30 UTC (CET)
		expect(localToEpochMs(local(2025, 10, 26, 2, 30), 'Europe/Berlin')).toBe(Date.UTC(2025, 9, 26, 0, 30));
	});

	it('shifts a time that does not exist (gap) by the offset before the gap', () => {
		// Berlin, 30 Mar 2025: 02:30 does not exist; read with CET (+1) it is 01:30 UTC = 03:30 CEST
		expect(localToEpochMs(local(2025, 3, 30, 2, 30), 'Europe/Berlin')).toBe(Date.UTC(2025, 2, 30, 1, 30));
	});
});
