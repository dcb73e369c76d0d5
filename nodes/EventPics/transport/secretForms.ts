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
		// a base64 character holds 6 bits: keep those made of the key's bits only
		const first = Math.ceil((8 * offset) / 6);
		const end = Math.floor((8 * (offset + Buffer.byteLength(secret, 'utf8'))) / 6);
		const core = encoded.slice(first, end);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/**
 * The forms in which an API plausibly echoes the key: as typed; JSON-escaped (once, twice, and with
 * `\/` as PHP writes it); URL-encoded (upper or lower case escapes, `+` or %20 for a space); base64
 * and base64url at any alignment (a Basic or Bearer header dumped). Longest first, so that a longer
 * form is replaced before a shorter one inside it. Not covered: hex, HTML entities, base64 wrapped
 * over lines, and any other encoding.
 */
export function secretForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const url = encodeURIComponent(secret);
	const lower = url.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
	const forms = new Set([
		json,
		JSON.stringify(json).slice(1, -1),
		json.replace(/\//g, '\\/'),
		url,
		lower,
		url.replace(/%20/g, '+'),
		lower.replace(/%20/g, '+'),
		...base64Forms(secret),
	]);
	// the key itself always; its encoded forms only when long enough not to match ordinary text
	const encoded = [...forms].filter((form) => form !== secret && form.length >= MIN_FORM_LENGTH);
	return [secret, ...encoded].sort((a, b) => b.length - a.length);
}
