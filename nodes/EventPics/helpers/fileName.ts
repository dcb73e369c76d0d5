import { INVISIBLE, trimRuns } from './text';

/** Longest file name sent, in UTF-8 bytes (storage keys allow 1024; names stay readable). */
export const MAX_FILE_NAME_BYTES = 200;

const encoder = new TextEncoder();

function utf8Length(text: string): number {
	return encoder.encode(text).length;
}

/** The extension of a file name, lower case and without the dot, or '' when it has none. */
export function extensionOf(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	if (dot <= 0 || dot === fileName.length - 1) return '';
	return fileName.slice(dot + 1).toLowerCase();
}

function cutToBytes(text: string, maxBytes: number): string {
	let result = '';
	for (const char of text) {
		if (utf8Length(result + char) > maxBytes) break;
		result += char;
	}
	return result;
}

/**
 * Of a longer name only its first and last MAX_LOOKED characters are cleaned (the name sent is at
 * most MAX_FILE_NAME_BYTES), so that a megabyte of a name costs no more than a few kilobytes.
 */
const MAX_LOOKED = 4096;

/**
 * A file name safe to send: no directory part, no control, bidi or zero-width characters (INVISIBLE
 * in text.ts), surrounding
 * spaces and dots trimmed, other Unicode kept, cut to MAX_FILE_NAME_BYTES without breaking a
 * character or the extension. n8n-workflow's sanitizeFilename does only the directory part (and NUL),
 * names an empty result "untitled" and is missing from n8n 2.0 and 2.1, so it is not used here.
 */
export function sanitizeFileName(raw: string): string {
	const whole = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
	const looked =
		whole.length <= 2 * MAX_LOOKED
			? whole
			: `${whole.slice(0, MAX_LOOKED)}${whole.slice(-MAX_LOOKED)}`;
	const base = looked.replace(INVISIBLE, '');
	const clean = trimRuns(base.trim(), '.').trim();
	if (utf8Length(clean) <= MAX_FILE_NAME_BYTES) return clean;
	const extension = extensionOf(clean);
	const suffix = extension && utf8Length(extension) <= 16 ? `.${extension}` : '';
	const stem = suffix ? clean.slice(0, clean.length - suffix.length) : clean;
	const cut = cutToBytes(stem, MAX_FILE_NAME_BYTES - utf8Length(suffix));
	return trimRuns(cut.trimEnd(), '.', false).trimEnd() + suffix;
}
