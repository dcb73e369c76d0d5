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

/** `text` with every occurrence of `secret`, in any of its forms (secretForms.ts), replaced. */
export function redact(text: string, secret: string | undefined): string {
	return secret ? replaceForms(text, secretForms(secret)) : text;
}

/**
 * Where to cut `text` near `max` so that no form of the key is cut in two (a half key would escape
 * redaction): before any form that starts before `max` and ends after it. Each look is a slice of
 * twice a form's length around the cut, so the work does not grow with the text.
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
 * whatever the size of the text. The cut is made in the text as it came, never inside a form of the
 * key; redacting first would move characters from past the cut (a key's start among them) before it.
 */
export function redactCapped(text: string, max: number, secret: string | undefined): string {
	if (!secret) return capText(text, max);
	const forms = secretForms(secret);
	if (text.length <= max) return replaceForms(text, forms);
	const cut = safeCut(text, max, forms);
	return `${replaceForms(text.slice(0, cut), forms)}… (${text.length - cut} more characters not shown)`;
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
		const text = redact(json.text, secret);
		// a form of the key that spanned JSON syntax: keep the redacted text
		return jsonParse<unknown>(text, { fallbackValue: text });
	}
	return redactCapped(json.text, maxJson, secret);
}
