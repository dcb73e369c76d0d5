import { capText } from './text';

export const REDACTED = '[redacted API key]';

/** Shortest encoded form still replaced: shorter ones would blank out ordinary text. */
const MIN_FORM_LENGTH = 6;

/**
 * The key inside base64 text at any position: base64 of the key after 0, 1 or 2 other bytes, less
 * the characters that also depend on the bytes around it; in base64 and base64url.
 */
function base64Forms(secret: string): string[] {
	const forms: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.from('\0'.repeat(offset) + secret, 'utf8').toString('base64');
		const first = Math.ceil((8 * offset) / 6);
		const end = Math.floor((8 * (offset + Buffer.byteLength(secret, 'utf8'))) / 6);
		const core = encoded.slice(first, end);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/**
 * One pattern, longest form first, for the forms in which an API plausibly echoes the key: as typed;
 * JSON-escaped (once, twice, and with `\/` as PHP writes it); URL-encoded (upper or lower case
 * escapes, `+` or %20 for a space); base64 and base64url at any alignment. Matched in any letter
 * case (a host name in a URL is lower-cased). Not covered: hex, HTML entities, wrapped base64.
 */
function patternOf(secret: string): RegExp {
	const json = JSON.stringify(secret).slice(1, -1);
	const url = encodeURIComponent(secret);
	const forms = new Set([
		secret,
		json,
		JSON.stringify(json).slice(1, -1),
		json.replace(/\//g, '\\/'),
		url,
		url.replace(/%20/g, '+'),
		...base64Forms(secret),
	]);
	const kept = [...forms].filter((form) => form === secret || form.length >= MIN_FORM_LENGTH);
	const escaped = kept
		.sort((a, b) => b.length - a.length)
		.map((form) => form.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
	return new RegExp(escaped.join('|'), 'gi');
}

/** `text` with the key, in any of its forms and letter cases, replaced. */
export function redact(text: string, secret: string | undefined): string {
	return secret ? text.replace(patternOf(secret), REDACTED) : text;
}

/**
 * A value from outside (an error's `details`, from an answer of at most 64 KiB) with the key
 * redacted in every string and key, each whole, before its JSON text is cut to `max` characters.
 * Deeper than 8 levels a value is "[nested too deep]".
 */
export function redactDetails(value: unknown, max: number, secret: string | undefined): unknown {
	const walk = (node: unknown, depth: number): unknown => {
		if (typeof node === 'string') return redact(node, secret);
		if (node === null || typeof node !== 'object') return node;
		if (depth >= 8) return '[nested too deep]';
		if (Array.isArray(node)) return node.map((entry) => walk(entry, depth + 1));
		// fromEntries defines, not assigns: a key "__proto__" stays a key
		return Object.fromEntries(
			Object.entries(node).map(([key, entry]) => [redact(key, secret), walk(entry, depth + 1)]),
		);
	};
	const clean = walk(value ?? null, 0);
	const json = JSON.stringify(clean) ?? 'null';
	return json.length <= max ? clean : capText(json, max);
}
