// Text from outside as messages show it. All linear in its input (no regular expression that can
// backtrack), so a megabyte of dots, slashes or spaces costs milliseconds.

/** `text` cut to `max` characters, with a note of how much was left out. */
export function capText(text: string, max: number): string {
	if (text.length <= max) return text;
	return `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}

/** Outside text as a message quotes it: at most 300 characters. */
export const shown = (text: string) => capText(text, 300);

/** `text` without the runs of `char` at its start (with `start`) and at its end. */
export function trimRuns(text: string, char: string, start = true): string {
	let from = 0;
	let to = text.length;
	if (start) while (from < to && text[from] === char) from++;
	while (to > from && text[to - 1] === char) to--;
	return text.slice(from, to);
}

/**
 * Not shown, but changes what is: controls, bidi and zero-width marks, line and paragraph
 * separators, lone surrogates ("photo\u202Egpj.exe" shows as "photoexe.jpg").
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** A title on one line: breaks as spaces, INVISIBLE out, spaces folded, cut to `max` with "…". */
export function oneLine(text: string, max: number): string {
	const looked = text.length > 4 * max ? text.slice(0, 4 * max) : text;
	const clean = looked
		.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ')
		.replace(INVISIBLE, '')
		.replace(/ {2,}/g, ' ')
		.trim();
	if (clean.length <= max) return clean;
	let cut = clean.slice(0, max - 1);
	if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
	return `${cut.trimEnd()}…`;
}

/** The header `name` (lower case, as Node.js gives them) of an answer, as text; the first of a repeated one. */
export function headerText(headers: Record<string, unknown> | undefined, name: string) {
	const value: unknown = headers?.[name];
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' ? first : undefined;
}

/** A size the one way the node words sizes: bytes under 1 KiB, KiB under 1 MiB, else MiB. */
export function shownSize(bytes: number): string {
	const tenths = (value: number) => Math.round(value * 10) / 10;
	if (bytes >= 1024 * 1024) return `${tenths(bytes / 1024 / 1024)} MiB`;
	if (bytes >= 1024) return `${tenths(bytes / 1024)} KiB`;
	return `${bytes} bytes`;
}

/** "45 s", "6 min", "6 min 20 s". */
export function shownDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const rest = seconds % 60;
	return `${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
}
