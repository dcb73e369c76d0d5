/** Wall-clock fields of a date and time; month 1-12. */
export interface LocalDateTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
}

const DAY = 24 * 60 * 60 * 1000;

/** The fields read as if they were UTC, in ms since 1970; undefined if any field is out of range. */
export function wallMs(fields: LocalDateTime): number | undefined {
	const date = new Date(0);
	date.setUTCFullYear(fields.year, fields.month - 1, fields.day);
	date.setUTCHours(fields.hour, fields.minute, fields.second, fields.millisecond);
	const same =
		date.getUTCFullYear() === fields.year &&
		date.getUTCMonth() === fields.month - 1 &&
		date.getUTCDate() === fields.day &&
		date.getUTCHours() === fields.hour &&
		date.getUTCMinutes() === fields.minute &&
		date.getUTCSeconds() === fields.second;
	return same ? date.getTime() : undefined;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat | undefined {
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
	return format;
}

/**
 * How far the wall clock of `timeZone` is ahead of UTC at the instant `epochMs`, in ms (no library:
 * Intl only); undefined for an unknown zone.
 */
export function zoneOffsetMs(epochMs: number, timeZone: string): number | undefined {
	const format = formatFor(timeZone);
	if (!format) return undefined;
	const part: Record<string, string> = {};
	for (const { type, value } of format.formatToParts(epochMs)) part[type] = value;
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
	const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
	return wall === undefined ? undefined : wall - wholeSeconds;
}

/**
 * The instant at which the clocks of `timeZone` show `local`; undefined for an impossible date or an
 * unknown zone. Where the wall time happens twice (clocks turned back) it is the earlier instant;
 * where it never happens (clocks turned forward) the offset in force before the change is used, so
 * 02:30 in a gap from 02:00 to 03:00 becomes 03:30, as Temporal's 'compatible' choice and RFC 5545 do.
 */
export function localToEpochMs(local: LocalDateTime, timeZone: string): number | undefined {
	const wall = wallMs(local);
	if (wall === undefined) return undefined;
	const before = zoneOffsetMs(wall - DAY, timeZone);
	const after = zoneOffsetMs(wall + DAY, timeZone);
	if (before === undefined || after === undefined) return undefined;
	const candidates = [wall - before, wall - after].filter(
		(utc, index) => zoneOffsetMs(utc, timeZone) === (index === 0 ? before : after),
	);
	return candidates.length > 0 ? Math.min(...candidates) : wall - before;
}
