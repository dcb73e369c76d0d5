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
 * Characters that are not shown but change what is shown: control characters (Cc, NUL and CR/LF
 * included), format characters (Cf: the bidi controls U+202A-202E, U+2066-2069, U+200E, U+200F,
 * U+061C, the zero-width U+200B-200D, U+2060 and the BOM U+FEFF among them) and the line and
 * paragraph separators. "photo\u202Egpj.exe" would show as "photoexe.jpg".
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A file name safe to send: no directory part, no control, bidi or zero-width characters, surrounding
 * spaces and dots trimmed, other Unicode kept, cut to MAX_FILE_NAME_BYTES without breaking a
 * character or the extension. n8n-workflow's sanitizeFilename does only the directory part (and NUL),
 * names an empty result "untitled" and is missing from n8n 2.0 and 2.1, so it is not used here.
 */
export function sanitizeFileName(raw: string): string {
	const base = raw.replace(INVISIBLE, '').split(/[/\\]/).pop() ?? '';
	const clean = base
		.trim()
		.replace(/^\.+|\.+$/g, '')
		.trim();
	if (utf8Length(clean) <= MAX_FILE_NAME_BYTES) return clean;
	const extension = extensionOf(clean);
	const suffix = extension && utf8Length(extension) <= 16 ? `.${extension}` : '';
	const stem = suffix ? clean.slice(0, clean.length - suffix.length) : clean;
	return cutToBytes(stem, MAX_FILE_NAME_BYTES - utf8Length(suffix)).trimEnd() + suffix;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first, then filename). */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
	if (extended) {
		try {
			return decodeURIComponent(extended[2].trim());
		} catch {
			// a malformed percent-encoding: fall back to the plain filename parameter
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
	return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}
