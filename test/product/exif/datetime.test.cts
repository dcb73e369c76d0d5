/** Exif date, offset and sub-second parsing, and toEpochMs in several zones including DST changes. */
import {
	parseExifDate,
	parseOffset,
	parseSubSec,
	toEpochMs,
} from '../../../nodes/EventPics/helpers/exif';

describe('parseExifDate', () => {
	test.each([
		['2023:06:30 23:59:58', '2023-06-30T23:59:58'],
		['2024:02:29 00:00:00', '2024-02-29T00:00:00'],
		['2023:06:30 23:59:58   ', '2023-06-30T23:59:58'],
		['2023-06-30 23:59:58', '2023-06-30T23:59:58'],
		['0001:01:01 00:00:00', '0001-01-01T00:00:00'],
		['9999:12:31 23:59:59', '9999-12-31T23:59:59'],
	])('%j is %s', (raw, expected) => expect(parseExifDate(raw)).toBe(expected));

	test.each([
		'0000:00:00 00:00:00',
		'    :  :     :  :  ',
		'',
		'garbage',
		'2023:06:30',
		'2023:06:30 23:59',
		'2023:13:01 00:00:00',
		'2023:04:31 00:00:00',
		'2023:02:29 00:00:00',
		'2023:06:30 24:00:00',
		'2023:06:30 23:60:00',
		'2023:06:30 23:59:60',
		'0000:01:01 00:00:00',
		'2023:6:30 1:2:3',
		' 2023:06:30 23:59:58',
		'2023:06:30 23:59:58Z',
		'2023:06:30 23:59:58+02:00',
		'２０２３:06:30 23:59:58',
	])('%j is no date', (raw) => expect(parseExifDate(raw)).toBeUndefined());
});

test.each([
	['0', '.000'],
	['5', '.500'],
	['12', '.120'],
	['042', '.042'],
	['999', '.999'],
	['1234567', '.123'],
	['  7 ', '.700'],
	['', undefined],
	['   ', undefined],
	['1a', undefined],
	['-5', undefined],
	['0.5', undefined],
])('parseSubSec(%j) is %s', (raw, expected) => expect(parseSubSec(raw)).toBe(expected));

test.each([
	['+02:00', '+02:00'],
	['-03:30', '-03:30'],
	['+00:00', '+00:00'],
	['+14:00', '+14:00'],
	['+05:45 ', '+05:45'],
	['   :  ', undefined],
	['', undefined],
	['Z', undefined],
	['+2:00', undefined],
	['+0200', undefined],
	['+14:30', undefined],
	['+15:00', undefined],
	['+01:60', undefined],
])('parseOffset(%j) is %s', (raw, expected) => expect(parseOffset(raw)).toBe(expected));

describe('toEpochMs', () => {
	const utc = (iso: string) => Date.parse(iso);

	test.each([
		['UTC', '2023-01-15T12:00:00', '2023-01-15T12:00:00Z'],
		['Europe/Berlin', '2023-01-15T12:00:00', '2023-01-15T11:00:00Z'],
		['Europe/Berlin', '2023-07-15T12:00:00.250', '2023-07-15T10:00:00.250Z'],
		['America/New_York', '2023-01-15T12:00:00', '2023-01-15T17:00:00Z'],
		['America/New_York', '2023-07-15T12:00:00', '2023-07-15T16:00:00Z'],
		['Asia/Kolkata', '2023-07-15T12:00:00', '2023-07-15T06:30:00Z'],
		['Asia/Kathmandu', '2023-07-15T12:00:00', '2023-07-15T06:15:00Z'],
		['Australia/Sydney', '2023-01-15T12:00:00', '2023-01-15T01:00:00Z'],
		['Australia/Sydney', '2023-07-15T12:00:00', '2023-07-15T02:00:00Z'],
		['Pacific/Kiritimati', '2023-07-15T12:00:00', '2023-07-14T22:00:00Z'],
		['UTC', '0001-01-01T00:00:00', '0001-01-01T00:00:00Z'],
		['UTC', '9999-12-31T23:59:59.999', '9999-12-31T23:59:59.999Z'],
		// just around a change each side keeps its own offset
		['Europe/Berlin', '2024-03-31T01:59:59', '2024-03-31T00:59:59Z'],
		['Europe/Berlin', '2024-03-31T03:00:00', '2024-03-31T01:00:00Z'],
		['Europe/Berlin', '2024-10-27T01:59:59', '2024-10-26T23:59:59Z'],
		['Europe/Berlin', '2024-10-27T03:00:00', '2024-10-27T02:00:00Z'],
		// a written offset wins over the zone; milliseconds count
		['America/New_York', '2023-06-30T23:59:58.042', '2023-06-30T21:59:58.042Z', '+02:00'],
		['UTC', '2021-03-28T01:30:00', '2021-03-28T04:00:00Z', '-02:30'],
		['Asia/Tokyo', '2021-03-28T01:30:00.5', '2021-03-28T01:30:00.500Z', '+00:00'],
	])('in %s, %s is %s', (zone, dateTime, expected, ...offset: string[]) => {
		expect(toEpochMs({ dateTime, offset: offset[0] }, zone)).toBe(utc(expected));
	});

	// Clocks turned forward: a wall time in the gap is moved forward by the gap ("compatible", as Temporal)
	test.each([
		['Europe/Berlin', '2024-03-31T02:30:00', '2024-03-31T01:30:00Z'], // = 03:30 CEST
		['America/New_York', '2024-03-10T02:30:00', '2024-03-10T07:30:00Z'], // = 03:30 EDT
		['Australia/Sydney', '2024-10-06T02:30:00', '2024-10-05T16:30:00Z'], // = 03:30 AEDT
		['Australia/Lord_Howe', '2024-10-06T02:15:00', '2024-10-05T15:45:00Z'], // 30-minute gap: = 02:45 +11
	])('DST gap in %s: %s becomes %s', (zone, dateTime, expected) => {
		expect(toEpochMs({ dateTime }, zone)).toBe(utc(expected));
	});

	// Clocks turned back: a wall time that happens twice is the earlier instant (the offset before the change)
	test.each([
		['Europe/Berlin', '2024-10-27T02:30:00', '2024-10-27T00:30:00Z'], // CEST, not 01:30Z (CET)
		['America/New_York', '2024-11-03T01:30:00', '2024-11-03T05:30:00Z'], // EDT, not 06:30Z (EST)
		['Australia/Sydney', '2024-04-07T02:30:00', '2024-04-06T15:30:00Z'], // AEDT, not 16:30Z (AEST)
	])('DST overlap in %s: %s is %s', (zone, dateTime, expected) => {
		expect(toEpochMs({ dateTime }, zone)).toBe(utc(expected));
	});

	test('round trip: the wall time Intl shows for an instant maps back to it (the earlier one in overlaps)', () => {
		const zones = [
			'Europe/Berlin',
			'America/New_York',
			'America/Sao_Paulo',
			'Australia/Lord_Howe',
			'Asia/Tehran',
		];
		let seed = 12345;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		for (const timeZone of zones) {
			const format = new Intl.DateTimeFormat('sv-SE', {
				timeZone,
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
				hourCycle: 'h23',
			});
			for (let i = 0; i < 300; i++) {
				const instant =
					Math.floor((utc('1990-01-01T00:00:00Z') + random() * 40 * 365 * 86400000) / 1000) * 1000;
				const dateTime = format.format(instant).replace(' ', 'T');
				const result = toEpochMs({ dateTime }, timeZone);
				// equal, or in an overlap the earlier occurrence (at most 1 hour before)
				expect([0, 1800000, 3600000]).toContain(instant - (result ?? NaN));
				if (result !== instant) expect(format.format(result ?? NaN)).toBe(format.format(instant));
			}
		}
	});

	test.each([
		[{ dateTime: 'garbage' }, 'UTC'],
		[{ dateTime: '2023-02-29T00:00:00' }, 'UTC'],
		[{ dateTime: '2023-01-01T24:00:00' }, 'UTC'],
		[{ dateTime: '2023:01:01 00:00:00' }, 'UTC'],
		[{ dateTime: '2023-01-01T00:00:00.1234' }, 'UTC'],
		[{ dateTime: '0000-01-01T00:00:00' }, 'UTC'],
		[{ dateTime: '2023-01-01T00:00:00' }, 'Mars/Olympus_Mons'],
		[{ dateTime: '2023-01-01T00:00:00' }, ''],
		[{ dateTime: '2023-01-01T00:00:00', offset: '+25:00' }, 'UTC'],
		[{ dateTime: '2023-01-01T00:00:00', offset: '' }, 'UTC'],
	])('%j in %j has no instant', (t, zone) => {
		expect(toEpochMs(t, zone)).toBeUndefined();
	});
});
