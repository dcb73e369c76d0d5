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

/** Every character (every UTF-16 unit) through `encode`. */
function eachUnit(secret: string, encode: (code: number) => string): string {
	let result = '';
	for (let i = 0; i < secret.length; i++) result += encode(secret.charCodeAt(i));
	return result;
}

const hex4 = (code: number) => code.toString(16).padStart(4, '0');

/** Percent-encodings: as encodeURIComponent writes them, in lower case, every byte encoded. */
function percentForms(secret: string): string[] {
	const url = encodeURIComponent(secret);
	const lower = url.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
	const bytes = Buffer.from(secret, 'utf8').toString('hex').toUpperCase().replace(/../g, '%$&');
	return [
		url,
		lower,
		url.replace(/%20/g, '+'),
		lower.replace(/%20/g, '+'),
		bytes,
		bytes.toLowerCase(),
	];
}

/** Escapes of JSON and JavaScript: once, twice, with `\/` (PHP), `\u0026` & co. (Go), every unit `\u`. */
function escapeForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const go = json.replace(/[&<>]/g, (c) => `\\u${hex4(c.charCodeAt(0))}`);
	const everyUnit = eachUnit(secret, (code) => `\\u${hex4(code)}`);
	return [
		json,
		JSON.stringify(json).slice(1, -1),
		json.replace(/\//g, '\\/'),
		go,
		everyUnit,
		everyUnit.toUpperCase().replace(/\\U/g, '\\u'),
	];
}

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/** HTML: the special characters as entities (`'` as &#39; or &#x27;), or every character as a number. */
function htmlForms(secret: string): string[] {
	const named = secret.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
	return [
		named,
		named.replace(/&#39;/g, '&#x27;'),
		eachUnit(secret, (code) => `&#${code};`),
		eachUnit(secret, (code) => `&#x${code.toString(16)};`),
	];
}

/**
 * Every form the key may take in what a server sends back: raw; JSON- and JavaScript-escaped;
 * URL-encoded (upper or lower case, every byte or only the special ones); base64 and base64url at
 * any alignment; hex; HTML entities. Longest first, so that a longer form is replaced before a
 * shorter one inside it. Not covered: the key split by anything but a line break inside base64,
 * other encodings (base32, quoted-printable, compressed or encrypted), hashes and parts of the key.
 */
export function secretForms(secret: string): string[] {
	const hex = Buffer.from(secret, 'utf8').toString('hex');
	const forms = new Set([
		...escapeForms(secret),
		...percentForms(secret),
		...base64Forms(secret),
		hex,
		hex.toUpperCase(),
		...htmlForms(secret),
	]);
	// the key itself always; its encoded forms only when long enough not to match ordinary text
	const encoded = [...forms].filter((form) => form !== secret && form.length >= MIN_FORM_LENGTH);
	return [secret, ...encoded].sort((a, b) => b.length - a.length);
}
