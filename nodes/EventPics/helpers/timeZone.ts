export interface LocalDateTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/** Offset of `timeZone` from UTC at the instant `epochMs`, in milliseconds. */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
	const parts: Record<string, number> = {};
	for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	const wholeSeconds = epochMs - (((epochMs % 1000) + 1000) % 1000);
	return asUtc - wholeSeconds;
}

export function isValidTimeZone(timeZone: string): boolean {
	try {
		formatterFor(timeZone);
		return true;
	} catch {
		return false;
	}
}

/**
 * The instant at which the wall clock of `timeZone` shows `local`. In a gap (clocks moved
 * forward) the later offset is used; in an overlap (clocks moved back) the earlier instant.
 */
export function localToEpochMs(local: LocalDateTime, timeZone: string): number {
	const asUtc = Date.UTC(
		local.year,
		local.month - 1,
		local.day,
		local.hour,
		local.minute,
		local.second,
		local.millisecond,
	);
	const candidates = new Set<number>();
	for (const probe of [asUtc - 86_400_000, asUtc, asUtc + 86_400_000]) {
		candidates.add(asUtc - zoneOffsetMs(probe, timeZone));
	}
	const exact = [...candidates]
		.filter((instant) => instant + zoneOffsetMs(instant, timeZone) === asUtc)
		.sort((a, b) => a - b);
	if (exact.length > 0) return exact[0];
	// In a gap: the wall time does not exist; shift by the offset in force before the gap.
	return asUtc - zoneOffsetMs(asUtc - 86_400_000, timeZone);
}
