import { localToEpochMs, wallMs } from '../timeZone';

/**
 * An Exif date "YYYY:MM:DD HH:MM:SS" (trailing spaces allowed; '-' accepted between the date parts) as
 * 'YYYY-MM-DDTHH:mm:ss'. Blank, zero ('0000:00:00 00:00:00'), partial or impossible dates (month 13,
 * 31 April, 24:00, second 60) give undefined.
 */
export function parseExifDate(value: string): string | undefined {
	const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2}) *$/.exec(value);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
	const fields = { year, month, day, hour, minute, second, millisecond: 0 };
	return year < 1 || wallMs(fields) === undefined
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

/** Milliseconds since 1970 of a capture time: its own offset if it has one, else the given IANA zone. */
export function toEpochMs(
	t: { dateTime: string; offset?: string },
	timeZone: string,
): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(t.dateTime);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
	const millisecond = Number((m[7] ?? '').padEnd(3, '0'));
	const fields = { year, month, day, hour, minute, second, millisecond };
	const wall = year < 1 ? undefined : wallMs(fields);
	if (wall === undefined) return undefined;
	if (t.offset === undefined) return localToEpochMs(fields, timeZone);
	const offset = parseOffset(t.offset);
	if (!offset) return undefined;
	const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
	return wall - (offset[0] === '-' ? -minutes : minutes) * 60000;
}
