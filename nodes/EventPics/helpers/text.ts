/**
 * Text handling for what comes from outside (file names, addresses, headers, the service's answers).
 * Everything here runs in time linear in its input: no regular expression that can backtrack, so a
 * megabyte of dots, slashes or spaces costs milliseconds, not minutes.
 */

/** `text` cut to `max` characters, with a note of how much was left out. */
export function capText(text: string, max: number): string {
	if (text.length <= max) return text;
	return `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}

/** Longest piece of outside text (a name, an address, a type) quoted in a message. */
const MAX_SHOWN = 300;

/** Outside text as a message quotes it: at most MAX_SHOWN characters. */
export function shown(text: string): string {
	return capText(text, MAX_SHOWN);
}

/** `text` without the runs of `char` at its start (with `start`) and at its end. */
export function trimRuns(text: string, char: string, start = true): string {
	let from = 0;
	let to = text.length;
	if (start) while (from < to && text[from] === char) from++;
	while (to > from && text[to - 1] === char) to--;
	return text.slice(from, to);
}

/**
 * Characters that are not shown but change what is shown: control characters (Cc, NUL and CR/LF
 * included), format characters (Cf: the bidi controls U+202A-202E, U+2066-2069, U+200E, U+200F,
 * U+061C, the zero-width U+200B-200D, U+2060 and the BOM U+FEFF among them), the line and
 * paragraph separators, and halves of a surrogate pair without their other half (not a character).
 * "photo\u202Egpj.exe" would show as "photoexe.jpg".
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** Line breaks and tabs, which a one-line text shows as a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/** `text` cut to `max` characters (code points kept whole), with "…" when it was longer. */
function cutCharacters(text: string, max: number): string {
	if (text.length <= max) return text;
	let cut = text.slice(0, max - 1);
	const last = cut.charCodeAt(cut.length - 1);
	if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
	return `${cut.trimEnd()}…`;
}

/**
 * Outside text shown on one line (a title the service sends): line breaks and tabs as spaces, other
 * invisible characters removed, runs of spaces as one, cut to `max` characters. Reads at most
 * 4 × `max` characters of it, so a title of megabytes costs what a short one does.
 */
export function oneLine(text: string, max: number): string {
	const looked = text.length > 4 * max ? text.slice(0, 4 * max) : text;
	const clean = looked.replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
	return cutCharacters(clean, max);
}

/** A header value as text: the first of a repeated header; undefined when absent or not text. */
export function headerValue(value: unknown): string | undefined {
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' ? first : undefined;
}

/** The header `name` (lower case, as Node.js gives them) of an answer, as text. */
export function headerText(headers: Record<string, unknown> | undefined, name: string) {
	return headerValue(headers?.[name]);
}
