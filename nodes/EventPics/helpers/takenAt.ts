import { DateTime } from 'luxon';

import { shown } from './text';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The date and time a clock shows, without offset or zone. */
const clockOf = (instant: DateTime) => instant.toISO({ includeOffset: false });

/**
 * The instant (ms) a valid wall-clock time of a zone stands for. A time that happens twice (Berlin
 * 2026-10-25 02:30) is the FIRST (luxon alone picks by today's offset, so its answer would change with
 * the season); one that never happens (2026-03-29 02:30) moves forward by the gap, as luxon does.
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

/** An instant as ISO 8601 with the zone's offset, milliseconds only when there are some; UTC if the zone is unknown. */
export function isoInZone(epochMs: number, timeZone: string): string {
	const iso = (zone: string) =>
		DateTime.fromMillis(epochMs, { zone }).toISO({ suppressMilliseconds: true });
	return iso(timeZone) ?? iso('utc')!;
}

type TakenAtResult = { ok: true; value: number | undefined } | { ok: false; reason: string };
const fail = (reason: string): TakenAtResult => ({ ok: false, reason });

/** Numbers below this are epoch seconds (it is 5138 AD in seconds, 1973 in milliseconds). */
const SECONDS_LIMIT = 1e11;

/** From 1970 (Unix time 0 is "no date" to many systems) to a year ahead (a camera clock set ahead passes, 9999 not). */
function inRange(value: number, what: string, nowMs: number): TakenAtResult {
	const latest = nowMs + 366 * DAY_MS;
	if (value > 0 && value <= latest) return { ok: true, value };
	const day = new Date(latest).toISOString().slice(0, 10);
	return fail(`${what} is outside the accepted range, 1970-01-01 to ${day} (one year from now)`);
}

function fromNumber(value: number, nowMs: number): TakenAtResult {
	if (!Number.isFinite(value) || value <= 0)
		return fail(`${value} is not a positive Unix timestamp`);
	return inRange(Math.round(value < SECONDS_LIMIT ? value * 1000 : value), String(value), nowMs);
}

/** ISO 8601 or SQL-style text ("2026-06-20 18:30") as luxon reads it; without an offset, in `timeZone`. */
function fromDateText(text: string, timeZone: string, nowMs: number): TakenAtResult {
	const quoted = `"${shown(text)}"`;
	const options = { zone: timeZone, setZone: true };
	let date = DateTime.fromISO(text, options);
	if (date.invalidReason === 'unparsable') date = DateTime.fromSQL(text, options);
	const value = wallClockToEpochMs(date);
	if (value !== undefined) return inRange(value, quoted, nowMs);
	if (date.invalidReason === 'unsupported zone')
		return fail(`the workflow's time zone "${timeZone}" is unknown`);
	const wrong =
		date.invalidReason === 'unit out of range' ? 'not a valid date and time' : 'not a date';
	return fail(`${quoted} is ${wrong}`);
}

/**
 * The Taken At parameter as Unix milliseconds, from epoch milliseconds or seconds, ISO 8601 or SQL text
 * (in `timeZone` without an offset), a Date or a Luxon date; empty is "not given".
 */
export function parseTakenAt(
	value: unknown,
	timeZone: string,
	nowMs: number = Date.now(),
): TakenAtResult {
	if (value === undefined || value === null) return { ok: true, value: undefined };
	if (typeof value === 'number') return fromNumber(value, nowMs);
	if (value instanceof Date) return fromNumber(value.getTime(), nowMs);
	const luxon = value as { toMillis?: () => number };
	if (typeof luxon.toMillis === 'function') return fromNumber(luxon.toMillis(), nowMs);
	if (typeof value !== 'string') return fail('it is neither a date nor a timestamp');
	const text = value.trim();
	if (text === '') return { ok: true, value: undefined };
	if (/^\d+(\.\d+)?$/.test(text)) return fromNumber(Number(text), nowMs);
	return fromDateText(text, timeZone, nowMs);
}
