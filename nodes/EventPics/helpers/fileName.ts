import { extensionOf } from './media';
import { INVISIBLE, trimRuns } from './text';

/** Longest file name sent, in UTF-8 bytes (storage keys allow 1024; names stay readable). */
export const MAX_FILE_NAME_BYTES = 200;

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * A file name safe to send (docs/limits.md), cut without breaking a character or the extension.
 * n8n-workflow's sanitizeFilename does only the directory part and is missing from n8n 2.0 and 2.1.
 */
export function sanitizeFileName(raw: string): string {
	const whole = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
	const looked = whole.length <= 8192 ? whole : `${whole.slice(0, 4096)}${whole.slice(-4096)}`;
	const clean = trimRuns(looked.replace(INVISIBLE, '').trim(), '.').trim();
	if (utf8Length(clean) <= MAX_FILE_NAME_BYTES) return clean;
	const extension = extensionOf(clean);
	const suffix = extension && utf8Length(extension) <= 16 ? `.${extension}` : '';
	let stem = '';
	for (const char of suffix ? clean.slice(0, clean.length - suffix.length) : clean) {
		if (utf8Length(stem + char) > MAX_FILE_NAME_BYTES - utf8Length(suffix)) break;
		stem += char;
	}
	return trimRuns(stem.trimEnd(), '.', false).trimEnd() + suffix;
}

/** decodeURIComponent, or undefined for a malformed percent-encoding. */
function decoded(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/** The last segment of a URL's path, decoded. */
export function fileNameFromUrl(url: URL): string | undefined {
	const last = url.pathname.split('/').filter(Boolean).pop();
	return last && (decoded(last) ?? last);
}

/**
 * The file name of a Content-Disposition header (RFC 6266: filename* first, then filename), read in
 * one pass over its first 16 KiB (a server writes it: no pattern that backtracks).
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
	const text = header?.slice(0, 16 * 1024) ?? '';
	const parameters = new Map<string, string>();
	for (let at = 0; at < text.length;) {
		let to = at;
		while (to < text.length && text[to] !== '=' && text[to] !== ';') to++;
		const name = text.slice(at, to).trim().toLowerCase();
		if (text[to] === '=') {
			let from = to + 1;
			while (text[from] === ' ' || text[from] === '\t') from++;
			let value: string | undefined;
			if (text[from] === '"') {
				for (to = from + 1; to < text.length && text[to] !== '"';) to += text[to] === '\\' ? 2 : 1;
				value = text.slice(from + 1, Math.min(to, text.length)).replace(/\\([\s\S]?)/g, '$1');
			}
			while (to < text.length && text[to] !== ';') to++;
			if (!parameters.has(name)) parameters.set(name, value ?? text.slice(from, to).trim());
		}
		at = to + 1;
	}
	// filename*=charset'language'percent-encoded; a malformed one gives way to filename
	const extended = parameters.get('filename*');
	const quote = extended?.indexOf("'", extended.indexOf("'") + 1) ?? -1;
	const encoded = extended && quote !== -1 ? decoded(extended.slice(quote + 1).trim()) : undefined;
	return encoded || parameters.get('filename')?.trim() || undefined;
}
