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
export const MAX_SHOWN = 300;

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
