import { DateTime } from 'luxon';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The date and time a clock shows, without offset or zone. */
const clockOf = (instant: DateTime) => instant.toISO({ includeOffset: false });

/**
 * The instant (ms since 1970) a wall-clock date and time of a zone stands for; undefined when it is
 * invalid (impossible date, unknown zone). Around a daylight-saving change:
 * - a time that happens twice (clocks turned back, Berlin 2026-10-25 02:30) is the FIRST of the two
 *   instants (00:30 UTC, still summer time). Luxon alone picks by the offset in force on the day the
 *   code runs, so its answer would change with the season;
 * - a time that never happens (clocks turned forward, Berlin 2026-03-29 02:30) is moved forward by the
 *   length of the gap (03:30 summer time = 01:30 UTC), as luxon does (Temporal's 'compatible').
 * Uses only luxon APIs that n8n 2.0's luxon (3.4.4) has.
 */
export function wallClockToEpochMs(wallClock: DateTime): number | undefined {
	if (!wallClock.isValid) return undefined;
	const chosen = wallClock.toMillis();
	const offsetBefore = wallClock.zone.offset(chosen - DAY_MS);
	if (offsetBefore <= wallClock.offset) return chosen;
	const earlier = chosen - (offsetBefore - wallClock.offset) * 60_000;
	const sameClock = clockOf(DateTime.fromMillis(earlier, { zone: wallClock.zone }));
	return sameClock === clockOf(wallClock) ? earlier : chosen;
}

/**
 * An instant as ISO 8601 in a time zone, with that zone's offset (`2026-06-20T18:30:05+02:00`;
 * milliseconds only when there are some). In UTC (`...Z`) when the zone is unknown.
 */
export function isoInZone(epochMs: number, timeZone: string): string {
	const options = { suppressMilliseconds: true };
	const inZone = DateTime.fromMillis(epochMs, { zone: timeZone });
	return inZone.toISO(options) ?? DateTime.fromMillis(epochMs, { zone: 'utc' }).toISO(options)!;
}
