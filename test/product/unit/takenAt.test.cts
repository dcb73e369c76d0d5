import { parseTakenAt } from '../../../nodes/EventPics/helpers/takenAt';

const ZONE = 'Europe/Berlin';

describe('parseTakenAt', () => {
	it.each([
		[1750437000000, 1750437000000],
		['1750437000000', 1750437000000],
		[1750437000, 1750437000000],
		['1750437000', 1750437000000],
		[1750437000.5, 1750437000500],
		['2025-06-20T16:30:00Z', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-06-20T18:30:00+02:00', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-06-20T18:30:00.250+0200', Date.UTC(2025, 5, 20, 16, 30, 0, 250)],
		// no offset: the workflow's time zone (Berlin is UTC+2 in June, UTC+1 in January)
		['2025-06-20T18:30:00', Date.UTC(2025, 5, 20, 16, 30)],
		['2025-01-20 18:30', Date.UTC(2025, 0, 20, 17, 30)],
		['2025-01-20', Date.UTC(2025, 0, 19, 23, 0)],
	])('reads %p as %p', (input, expected) => {
		expect(parseTakenAt(input, ZONE)).toEqual({ ok: true, value: expected });
	});

	it('reads a Date and a Luxon-like date', () => {
		expect(parseTakenAt(new Date(Date.UTC(2025, 5, 20)), ZONE)).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20),
		});
		expect(parseTakenAt({ toMillis: () => 1750437000123 }, ZONE)).toEqual({
			ok: true,
			value: 1750437000123,
		});
	});

	it('treats empty as not given', () => {
		for (const empty of [undefined, null, '', '   ']) {
			expect(parseTakenAt(empty, ZONE)).toEqual({ ok: true, value: undefined });
		}
	});

	it('sends whole milliseconds', () => {
		const result = parseTakenAt(1750437000.1234, ZONE);
		expect(result).toEqual({ ok: true, value: 1750437000123 });
	});

	it.each([
		['yesterday', '"yesterday" is not a date'],
		['2025-02-30T10:00:00', '"2025-02-30T10:00:00" is not a valid date and time'],
		['2025-06-20T25:00:00', '"2025-06-20T25:00:00" is not a valid date and time'],
		[-5, '-5 is not a positive Unix timestamp'],
		[0, '0 is not a positive Unix timestamp'],
		[true, 'it is neither a date nor a timestamp'],
	])('refuses %p', (input, reason) => {
		expect(parseTakenAt(input, ZONE)).toEqual({ ok: false, reason });
	});

	it('reads what luxon reads as ISO 8601 or SQL-style text', () => {
		expect(parseTakenAt('2025-06-20 18:30:00+02:00', ZONE)).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 16, 30),
		});
		expect(parseTakenAt('2025-06-20T18:30:00,5z', ZONE)).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 18, 30, 0, 500),
		});
		expect(parseTakenAt('20250620T183000', ZONE)).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 16, 30),
		});
	});

	// n8n-workflow's tryToParseDateTime falls back to Date.parse: it takes 30 February as 2 March and
	// reads "June 20, 2025 18:30" in the machine's zone, not the workflow's. Those stay refused here.
	it.each([
		['June 20, 2025 18:30', '"June 20, 2025 18:30" is not a date'],
		['2025-02-30 10:00', '"2025-02-30 10:00" is not a valid date and time'],
	])('refuses %p, which Date.parse would guess', (input, reason) => {
		expect(parseTakenAt(input, ZONE)).toEqual({ ok: false, reason });
	});

	it('says so when the workflow time zone is unknown', () => {
		expect(parseTakenAt('2025-06-20T18:30:00', 'Mars/Olympus_Mons')).toEqual({
			ok: false,
			reason: 'the workflow\'s time zone "Mars/Olympus_Mons" is unknown',
		});
	});

	it('uses the given zone, not the machine zone', () => {
		expect(parseTakenAt('2025-06-20T18:30:00', 'America/New_York')).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 22, 30),
		});
		expect(parseTakenAt('2025-06-20T18:30:00', 'UTC')).toEqual({
			ok: true,
			value: Date.UTC(2025, 5, 20, 18, 30),
		});
	});
});
