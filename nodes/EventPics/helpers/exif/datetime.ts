/** Wall-clock fields; month 1-12. */
interface Fields {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
}

/** The fields as if they were UTC, in ms since 1970; undefined if any field is out of range. */
function wallMs(f: Fields): number | undefined {
	const date = new Date(0);
	date.setUTCFullYear(f.year, f.month - 1, f.day);
	date.setUTCHours(f.hour, f.minute, f.second, f.millisecond);
	const same =
		date.getUTCFullYear() === f.year &&
		date.getUTCMonth() === f.month - 1 &&
		date.getUTCDate() === f.day &&
		date.getUTCHours() === f.hour &&
		date.getUTCMinutes() === f.minute &&
		date.getUTCSeconds() === f.second;
	return same ? date.getTime() : undefined;
}

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

const formats = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at the instant utcMs, in ms; undefined for a bad zone. */
function zoneOffsetMs(timeZone: string, utcMs: number): number | undefined {
	let format = formats.get(timeZone);
	if (!format) {
		try {
			format = new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				era: 'short',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
			});
		} catch {
			return undefined;
		}
		formats.set(timeZone, format);
	}
	const part: Record<string, string> = {};
	for (const { type, value } of format.formatToParts(utcMs)) part[type] = value;
	const year = Number(part.year);
	const wall = wallMs({
		year: part.era === 'BC' || part.era === 'B' ? 1 - year : year,
		month: Number(part.month),
		day: Number(part.day),
		hour: Number(part.hour),
		minute: Number(part.minute),
		second: Number(part.second),
		millisecond: 0,
	});
	const utcSeconds = Math.floor(utcMs / 1000) * 1000;
	return wall === undefined ? undefined : wall - utcSeconds;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The instant at which the zone's clocks show `wall` (fields taken as UTC, in ms). Where the wall time
 * happens twice (clocks turned back) it is the earlier instant; where it never happens (clocks turned
 * forward) it is the instant the same time after the transition as `wall` is after the last valid time
 * before it, i.e. 02:30 in a gap from 02:00 to 03:00 becomes 03:30. Both follow the offset in force
 * before the transition, as Temporal's 'compatible' disambiguation and RFC 5545 do.
 */
function zonedToUtc(wall: number, timeZone: string): number | undefined {
	const before = zoneOffsetMs(timeZone, wall - DAY);
	const after = zoneOffsetMs(timeZone, wall + DAY);
	if (before === undefined || after === undefined) return undefined;
	const candidates = [wall - before, wall - after].filter(
		(utc, i) => zoneOffsetMs(timeZone, utc) === (i === 0 ? before : after),
	);
	return candidates.length > 0 ? Math.min(...candidates) : wall - before;
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
	const wall =
		year < 1 ? undefined : wallMs({ year, month, day, hour, minute, second, millisecond });
	if (wall === undefined) return undefined;
	if (t.offset === undefined) return zonedToUtc(wall, timeZone);
	const offset = parseOffset(t.offset);
	if (!offset) return undefined;
	const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
	return wall - (offset[0] === '-' ? -minutes : minutes) * 60000;
}
