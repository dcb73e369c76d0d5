export const REDACTED = '[redacted API key]';

/** Shortest encoded form still replaced: shorter ones would blank out ordinary text. */
const MIN_FORM_LENGTH = 6;

/**
 * The key inside base64 text at any position: base64 of the key after 0, 1 or 2 other bytes, less
 * the characters that also depend on the bytes around it.
 */
function base64Forms(secret: string): string[] {
	const forms: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.from('\0'.repeat(offset) + secret, 'utf8').toString('base64');
		// a base64 character holds 6 bits: keep those made of the key's bits only
		const first = Math.ceil((8 * offset) / 6);
		const end = Math.floor((8 * (offset + Buffer.byteLength(secret, 'utf8'))) / 6);
		const core = encoded.slice(first, end);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/** Every form the key may take in what a server sends back: raw, JSON-escaped, URL-encoded, base64. */
function secretForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const forms = new Set([
		secret,
		json,
		JSON.stringify(json).slice(1, -1),
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%20/g, '+'),
		...base64Forms(secret),
	]);
	// the key itself always; its encoded forms only when long enough not to match ordinary text
	const encoded = [...forms].filter((form) => form !== secret && form.length >= MIN_FORM_LENGTH);
	return [secret, ...encoded].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of `secret`, in any of its forms, replaced. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret) return text;
	let result = text;
	for (const form of secretForms(secret)) result = result.split(form).join(REDACTED);
	return result;
}

/**
 * A copy of `value` with the key redacted from every string and property name, at most `depth`
 * levels deep (deeper levels become a note).
 */
export function redactDeep(value: unknown, secret: string | undefined, depth = 8): unknown {
	if (typeof value === 'string') return redact(value, secret);
	if (value === null || typeof value !== 'object') return value ?? null;
	if (depth <= 0) return '[nested too deep]';
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secret, depth - 1));
	const copy: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value))
		copy[redact(key, secret)] = redactDeep(entry, secret, depth - 1);
	return copy;
}
