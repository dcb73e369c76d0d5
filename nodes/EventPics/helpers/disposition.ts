/** A quoted-string's content: `\x` stands for `x`. */
function unquote(text: string): string {
	// one pass: each backslash takes the character after it (nothing to backtrack)
	return text.includes('\\') ? text.replace(/\\([\s\S]?)/g, '$1') : text;
}

/**
 * The parameters of a Content-Disposition header, names in lower case, the first of each name kept.
 * One pass over the header (a server controls it, so no pattern that backtracks): a parameter is
 * `name=token` or `name="quoted string"`, separated by ";"; parts without "=" (the type) are skipped.
 */
function dispositionParameters(header: string): Map<string, string> {
	const parameters = new Map<string, string>();
	const end = header.length;
	let at = 0;
	while (at < end) {
		let equals = at;
		while (equals < end && header[equals] !== '=' && header[equals] !== ';') equals++;
		if (equals >= end || header[equals] === ';') {
			at = equals + 1;
			continue;
		}
		const name = header.slice(at, equals).trim().toLowerCase();
		let from = equals + 1;
		while (from < end && (header[from] === ' ' || header[from] === '\t')) from++;
		let to = from;
		let value: string;
		if (header[from] === '"') {
			to = from + 1;
			while (to < end && header[to] !== '"') to += header[to] === '\\' ? 2 : 1;
			value = unquote(header.slice(from + 1, Math.min(to, end)));
			while (to < end && header[to] !== ';') to++;
		} else {
			while (to < end && header[to] !== ';') to++;
			value = header.slice(from, to).trim();
		}
		if (!parameters.has(name)) parameters.set(name, value);
		at = to + 1;
	}
	return parameters;
}

/**
 * Longest part of a Content-Disposition header read: Node.js takes 16 KiB of headers in all unless
 * started with a larger --max-http-header-size, and a file name is cut to 200 bytes anyway.
 */
const MAX_DISPOSITION_LENGTH = 16 * 1024;

/** The file name of a Content-Disposition header (RFC 6266: filename* first, then filename). */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const parameters = dispositionParameters(disposition.slice(0, MAX_DISPOSITION_LENGTH));
	const extended = parameters.get('filename*');
	if (extended !== undefined) {
		// charset'language'percent-encoded
		const first = extended.indexOf("'");
		const second = first === -1 ? -1 : extended.indexOf("'", first + 1);
		if (second !== -1 && second + 1 < extended.length) {
			try {
				return decodeURIComponent(extended.slice(second + 1).trim());
			} catch {
				// a malformed percent-encoding: fall back to the plain filename parameter
			}
		}
	}
	const plain = parameters.get('filename');
	return plain === undefined || plain === '' ? undefined : plain.trim();
}
