/** The allowed values of one numeric option, as the user sees it. */
interface NumberRule {
	/** The option's name in the editor, e.g. "Concurrent Uploads". */
	label: string;
	min: number;
	max: number;
	integer: boolean;
}

type NumberCheck = { ok: true; value: number } | { ok: false; reason: string };

export const NUMBER_RULES = {
	concurrency: { label: 'Concurrent Uploads', min: 0, max: 64, integer: true },
	maxAttempts: { label: 'Max Attempts', min: 1, max: 20, integer: true },
	maxTotalWaitSeconds: { label: 'Max Total Wait (Seconds)', min: 0, max: 3600, integer: false },
	timeoutSeconds: { label: 'Timeout (Seconds)', min: 1, max: 600, integer: true },
	limit: { label: 'Limit', min: 1, max: 100_000, integer: true },
	maxFileSizeMb: { label: 'Max File Size (MB)', min: 1, max: 1024 * 1024, integer: false },
} satisfies Record<string, NumberRule>;

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
	if (typeof value === 'number') return String(value);
	try {
		return String(JSON.stringify(value) ?? value).slice(0, 40);
	} catch {
		return typeof value;
	}
}

export function rangeText(rule: NumberRule): string {
	return `${rule.integer ? 'a whole number' : 'a number'} from ${rule.min} to ${rule.max}`;
}

/**
 * Checks a numeric option whatever an expression made of it: a number (or the text of one) within
 * the rule's range, whole when the rule says so. NaN, Infinity, fractions of whole-number options,
 * values out of range and anything else are refused with a reason naming the value and the range.
 */
export function checkNumber(value: unknown, rule: NumberRule): NumberCheck {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value.trim())
				: NaN;
	const valid =
		Number.isFinite(number) &&
		number >= rule.min &&
		number <= rule.max &&
		(!rule.integer || Number.isInteger(number));
	if (valid) return { ok: true, value: number };
	return {
		ok: false,
		reason: `"${rule.label}" is ${shown(value)}, but must be ${rangeText(rule)}`,
	};
}
