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
 * A file name safe to send: no directory part, no control characters, surrounding spaces and dots
 * trimmed, Unicode kept, cut to MAX_FILE_NAME_BYTES without breaking a character or the extension.
 */
export function sanitizeFileName(raw: string): string {
	const base = raw.split(/[/\\]/).pop() ?? '';
	const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().replace(/^\.+|\.+$/g, '').trim();
	if (utf8Length(clean) <= MAX_FILE_NAME_BYTES) return clean;
	const extension = extensionOf(clean);
	const suffix = extension && utf8Length(extension) <= 16 ? `.${extension}` : '';
	const stem = suffix ? clean.slice(0, clean.length - suffix.length) : clean;
	return cutToBytes(stem, MAX_FILE_NAME_BYTES - utf8Length(suffix)).trimEnd() + suffix;
}
