import { createHash } from 'crypto';

export type OptionText = { ok: true; text: string } | { ok: false; reason: string };

/** What a value is, in words, for an error. */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'empty (null)';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A date as n8n's expressions give them: a JavaScript Date or a Luxon DateTime. */
function dateText(value: object): string | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	const toISO = (value as { toISO?: unknown }).toISO;
	return typeof toISO === 'function' ? String(toISO.call(value)) : undefined;
}

/** Values JSON leaves out of an object (and writes as null in a list). */
const skipped = (value: unknown) =>
	value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** JSON with the keys of every object sorted, so that equal objects give equal text. */
function canonicalJson(value: unknown, seen: Set<object>): string {
	if (typeof value === 'bigint') return String(value);
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	const date = dateText(value);
	if (date !== undefined) return JSON.stringify(date);
	if (seen.has(value)) throw new TypeError('an object that contains itself');
	seen.add(value);
	const json = (entry: unknown) => (skipped(entry) ? 'null' : canonicalJson(entry, seen));
	const record = value as Record<string, unknown>;
	const text = Array.isArray(value)
		? `[${value.map(json).join(',')}]`
		: `{${Object.keys(record)
				.filter((key) => !skipped(record[key]))
				.sort()
				.map((key) => `${JSON.stringify(key)}:${json(record[key])}`)
				.join(',')}}`;
	seen.delete(value);
	return text;
}

/** Longest Duplicate Key kept as it is; a longer one is kept as its SHA-256 (a fixed 71 characters). */
const MAX_KEY_TEXT = 200;

/**
 * The text a Duplicate Key identifies a file by, whatever an expression gave: text (trimmed), a
 * number or boolean as written, a date in ISO 8601, an object or list as JSON with sorted keys (so
 * `{{ { id: $json.id } }}` tells files apart instead of every file being "[object Object]"). A key
 * longer than MAX_KEY_TEXT is kept as `sha256:<hex>` of its text. A function, a symbol or an object
 * that contains itself is refused. Empty means "not set".
 */
export function duplicateKeyText(value: unknown): OptionText {
	let text: string;
	if (value === undefined || value === null) text = '';
	else if (typeof value === 'string') text = value.trim();
	else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		text = String(value);
	else if (typeof value === 'object') {
		try {
			text = dateText(value) ?? canonicalJson(value, new Set());
		} catch (error) {
			return {
				ok: false,
				reason: `is or holds ${(error as Error).message}, which cannot identify a file`,
			};
		}
	} else return { ok: false, reason: `is ${kindOf(value)}, which cannot identify a file` };
	if (text.length <= MAX_KEY_TEXT) return { ok: true, text };
	return { ok: true, text: `sha256:${createHash('sha256').update(text).digest('hex')}` };
}

/**
 * The File Name option as text: text as it is, a number as written; empty (null, undefined, '')
 * means "not set". Anything else (an object, a list, a boolean) is refused.
 */
export function fileNameText(value: unknown): OptionText {
	if (value === undefined || value === null) return { ok: true, text: '' };
	if (typeof value === 'string') return { ok: true, text: value };
	if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, text: String(value) };
	return { ok: false, reason: `is ${kindOf(value)}, but must be text` };
}
