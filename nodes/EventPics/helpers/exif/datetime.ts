import { DateTime } from 'luxon';

import { wallClockToEpochMs } from '../timeZone';

/**
 * An Exif date "YYYY:MM:DD HH:MM:SS" (trailing spaces allowed; '-' accepted between the date parts) as
 * 'YYYY-MM-DDTHH:mm:ss'. Blank, zero ('0000:00:00 00:00:00'), partial or impossible dates (month 13,
 * 31 April, 24:00, second 60) give undefined.
 */
export function parseExifDate(value: string): string | undefined {
	const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2}) *$/.exec(value);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
	const date = DateTime.utc(year, month, day, hour, minute, second);
	// luxon takes 24:00:00 as the next midnight (ISO 8601 allows it); Exif does not
	return year < 1 || !date.isValid || date.hour !== hour
		? undefined
		: `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

/** An Exif sub-second value (decimal digits of a fraction, e.g. "12" = 0.12 s) as '.SSS' (truncated). */
export function parseSubSec(value: string): string | undefined {
	const digits = value.trim();
	return /^\d+$/.test(digits) ? `.${digits.slice(0, 3).padEnd(3, '0')}` : undefined;
}

/** An Exif offset "+HH:MM" / "-HH:MM" (at most 14 hours); blanks and anything else give undefined. */
export function parseOffset(value: string): string | undefined {
	const m = /^([+-])(\d{2}):(\d{2})$/.exec(value.trim());
	return m && Number(m[2]) * 60 + Number(m[3]) <= 14 * 60 && Number(m[3]) < 60 ? m[0] : undefined;
}

/** The shape parseExifDate (plus parseSubSec) gives; year 0000 and hour 24 are no date. */
const CAPTURE_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):\d{2}:\d{2}(?:\.\d{1,3})?$/;

/**
 * Milliseconds since 1970 of a capture time: its own offset if it has one, else the wall clock of the
 * given IANA zone (wallClockToEpochMs says which instant a time around a daylight-saving change is).
 */
export function toEpochMs(
	t: { dateTime: string; offset?: string },
	timeZone: string,
): number | undefined {
	if (!CAPTURE_TIME.test(t.dateTime)) return undefined;
	if (t.offset === undefined) {
		return wallClockToEpochMs(DateTime.fromISO(t.dateTime, { zone: timeZone }));
	}
	const offset = parseOffset(t.offset);
	const instant = offset ? DateTime.fromISO(t.dateTime + offset) : undefined;
	return instant?.isValid ? instant.toMillis() : undefined;
}
