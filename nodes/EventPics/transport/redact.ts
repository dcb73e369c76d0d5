import { jsonParse } from 'n8n-workflow';

import { capText } from '../helpers/text';
import { secretForms } from './secretForms';

export const REDACTED = '[redacted API key]';

/** Replaces every form (longest first) by REDACTED: one search of the text per form. */
function replaceForms(text: string, forms: string[]): string {
	let result = text;
	for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
	return result;
}

/**
 * A line break between two base64 characters: a real one (MIME wraps base64 every 76 characters,
 * PEM every 64) or one written as `\n` inside JSON text. Each position is tried once in constant
 * time (no quantifier to backtrack).
 */
const WRAP = /([A-Za-z0-9+/=_-])(?:\r?\n|\\r\\n|\\n)(?=[A-Za-z0-9+/=_-])/g;

/** The text with every form of the key replaced, base64 across line breaks included. */
function redactWith(text: string, forms: string[]): string {
	const redacted = replaceForms(text, forms);
	const joined = redacted.replace(WRAP, '$1');
	if (joined === redacted) return redacted;
	// the lines are joined only where that reveals the key
	const again = replaceForms(joined, forms);
	return again === joined ? redacted : again;
}

/** `text` with every occurrence of `secret`, in any of its forms, replaced. */
export function redact(text: string, secret: string | undefined): string {
	return secret ? redactWith(text, secretForms(secret)) : text;
}

/**
 * Where to cut `text` near `max` so that no form of the key is cut in two (a half key would escape
 * redaction): before any form that starts before `max` and ends after it.
 */
function safeCut(text: string, max: number, forms: string[]): number {
	let cut = max;
	for (let moved = true; moved;) {
		moved = false;
		for (const form of forms) {
			const from = Math.max(0, cut - form.length + 1);
			const at = text.slice(from, cut + form.length - 1).indexOf(form);
			if (at !== -1 && from + at < cut) {
				cut = from + at;
				moved = true;
			}
		}
	}
	return cut;
}

/**
 * `text` cut to `max` characters (with a note of how many were left out), then the key redacted in
 * what is kept. Only the start of a long text is ever searched, so the work is bounded by `max`
 * whatever the size of the text; the cut never splits a form of the key.
 */
export function redactCapped(text: string, max: number, secret: string | undefined): string {
	if (!secret) return capText(text, max);
	const forms = secretForms(secret);
	if (text.length <= max) return redactWith(text, forms);
	// enough beyond the cut to see a form that crosses it, also when base64 is wrapped over lines
	const window = text.slice(0, max + 4 * forms[0].length + 8);
	// the lines joined where that reveals the key, so that the cut sees the wrapped key whole
	const joined = window.replace(WRAP, '$1');
	const view = occurrences(joined, forms) > occurrences(window, forms) ? joined : window;
	const cut = safeCut(view, max, forms);
	return `${replaceForms(view.slice(0, cut), forms)}… (${text.length - cut} more characters not shown)`;
}

function occurrences(text: string, forms: string[]): number {
	let found = 0;
	for (const form of forms) found += text.split(form).length - 1;
	return found;
}

/**
 * The JSON text of `value`, but never much longer than `max` characters: the walk stops once that
 * much is written, so a 250,000-key object costs no more than a small one. `complete` is false when
 * it stopped early. Deeper than `depth` levels, values are written as "[nested too deep]".
 */
function boundedJson(value: unknown, max: number, depth = 8): { text: string; complete: boolean } {
	const parts: string[] = [];
	let length = 0;
	const write = (part: string) => {
		parts.push(part);
		length += part.length;
		return length <= max;
	};
	const walk = (node: unknown, level: number): boolean => {
		if (typeof node === 'string') return write(JSON.stringify(node.slice(0, max + 1)));
		if (node === null || typeof node !== 'object') return write(JSON.stringify(node) ?? 'null');
		if (level >= depth) return write('"[nested too deep]"');
		const array = Array.isArray(node);
		if (!write(array ? '[' : '{')) return false;
		let first = true;
		for (const key in node) {
			if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
			if (!first && !write(',')) return false;
			first = false;
			if (!array && !write(`${JSON.stringify(key.slice(0, max + 1))}:`)) return false;
			if (!walk((node as Record<string, unknown>)[key], level + 1)) return false;
		}
		return write(array ? ']' : '}');
	};
	const complete = walk(value, 0);
	return { text: parts.join(''), complete };
}

/**
 * The service's `details` for an error: as they are (key redacted) when their JSON fits in
 * `maxJson` characters, else their JSON text cut to that and redacted. Bounded work at any size.
 */
export function redactDetails(
	value: unknown,
	maxJson: number,
	secret: string | undefined,
): unknown {
	const json = boundedJson(value ?? null, maxJson);
	if (json.complete && json.text.length <= maxJson) {
		const text = secret ? redactWith(json.text, secretForms(secret)) : json.text;
		// a form of the key that spanned JSON syntax: keep the redacted text
		return jsonParse<unknown>(text, { fallbackValue: text });
	}
	return redactCapped(json.text, maxJson, secret);
}
