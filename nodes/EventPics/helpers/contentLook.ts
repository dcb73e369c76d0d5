import { sniffMediaType } from './sniff';

/** Media types whose content is text by nature (SVG, image/svg+xml, among them: markup). */
export function isTextualType(contentType: string): boolean {
	return (
		contentType.startsWith('text/') ||
		contentType.endsWith('+xml') ||
		contentType.endsWith('+json') ||
		['application/json', 'application/xml', 'application/javascript'].includes(contentType)
	);
}

/** Shortest text that is called text; a few letters could still be anything. */
const MIN_TEXT_CHARACTERS = 8;

/** Control characters that text may hold (tab, line feed, form feed, carriage return, escape). */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

const isControl = (code: number) =>
	(code < 0x20 && !TEXT_CONTROLS.has(code)) || (code >= 0x7f && code < 0xa0);
const isControlByte = (byte: number) => (byte < 0x20 && !TEXT_CONTROLS.has(byte)) || byte === 0x7f;

/** "\0<\0h": the zero is the first half of a UTF-16 big-endian character, not a byte to skip. */
const utf16BigEndianAt = (bytes: Uint8Array, at: number) =>
	bytes[at] === 0 && bytes[at + 1] !== 0 && bytes[at + 2] === 0;

/**
 * The encoding of text in `bytes`: a byte order mark says it, or else UTF-16 without one shows as a
 * zero in every other byte (ASCII characters); anything else is read as UTF-8.
 */
function encodingOf(bytes: Uint8Array): { encoding: string; skip: number } {
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
		return { encoding: 'utf-8', skip: 3 };
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
	const pairs = Math.floor(bytes.length / 2);
	let zeroHigh = 0;
	let zeroLow = 0;
	for (let i = 0; i < pairs; i++) {
		if (bytes[2 * i + 1] === 0 && bytes[2 * i] !== 0) zeroHigh++;
		if (bytes[2 * i] === 0 && bytes[2 * i + 1] !== 0) zeroLow++;
	}
	if (pairs >= MIN_TEXT_CHARACTERS && zeroHigh >= pairs * 0.9)
		return { encoding: 'utf-16le', skip: 0 };
	if (pairs >= MIN_TEXT_CHARACTERS && zeroLow >= pairs * 0.9)
		return { encoding: 'utf-16be', skip: 0 };
	return { encoding: 'utf-8', skip: 0 };
}

/** `bytes` as text, or undefined when they hold what no text holds (control codes, invalid UTF). */
function decodeText(bytes: Uint8Array): string | undefined {
	const { encoding, skip } = encodingOf(bytes);
	let text: string;
	try {
		text = new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(skip), {
			stream: true,
		});
	} catch {
		return undefined;
	}
	for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return undefined;
	return text.length >= MIN_TEXT_CHARACTERS ? text : undefined;
}

/**
 * What kind of text the first bytes are (HTML, XML or markup, JSON, plain text), or undefined when
 * they are a known photo or video format, hold bytes no text has, or are too few to tell. The text
 * may be UTF-8 or UTF-16 (with or without a byte order mark) and may follow NUL or other control
 * bytes at the very start (a "\x01AWS_SECRET_ACCESS_KEY=..." or "\0<html>" is text all the same).
 */
export function sniffText(bytes: Uint8Array): string | undefined {
	if (sniffMediaType(bytes)) return undefined;
	let start = 0;
	// leading control bytes, but not the zero of UTF-16 big-endian text ("\0<\0h...")
	while (start < bytes.length && isControlByte(bytes[start]) && !utf16BigEndianAt(bytes, start))
		start++;
	const text = decodeText(bytes.subarray(start));
	if (text === undefined) return undefined;
	const head = text
		.replace(/^\uFEFF/, '')
		.trimStart()
		.toLowerCase();
	if (/^<(!doctype html|html|head|body|script|meta|title|div|p[\s>]|!--)/.test(head)) return 'HTML';
	if (head.startsWith('<?xml') || head.startsWith('<')) return 'XML or markup';
	if (head.startsWith('{') || head.startsWith('[')) return 'JSON';
	return 'text';
}

/** Formats that are surely neither a photo nor a video, by their first bytes: [signature, offset, what]. */
const NOT_MEDIA: Array<[number[], number, string]> = [
	[[0x25, 0x50, 0x44, 0x46, 0x2d], 0, 'a PDF document'],
	[[0x50, 0x4b, 0x03, 0x04], 0, 'a ZIP archive (or an Office document, a .jar or .apk)'],
	[[0x50, 0x4b, 0x05, 0x06], 0, 'a ZIP archive'],
	[[0x1f, 0x8b], 0, 'a gzip archive'],
	[[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 0, 'a 7-Zip archive'],
	[[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], 0, 'a RAR archive'],
	[[0x75, 0x73, 0x74, 0x61, 0x72], 257, 'a tar archive'],
	[[0x4d, 0x5a], 0, 'a Windows program'],
	[[0x7f, 0x45, 0x4c, 0x46], 0, 'a program (ELF)'],
	[[0xcf, 0xfa, 0xed, 0xfe], 0, 'a macOS program'],
	[[0xce, 0xfa, 0xed, 0xfe], 0, 'a macOS program'],
	[[0xca, 0xfe, 0xba, 0xbe], 0, 'a macOS program or Java class'],
	[[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0, 'an Office document'],
	[[0xfe, 0xed, 0xfe, 0xed], 0, 'a Java keystore'],
	[[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], 0, 'an SQLite database'],
	// DER: a SEQUENCE with a long length (keys, certificates, PKCS#12 files)
	[[0x30, 0x82], 0, 'a DER-encoded key or certificate'],
	[[0x30, 0x83], 0, 'a DER-encoded key or certificate'],
];

/** What the first bytes are when they are a known format that is no photo or video, else undefined. */
export function sniffNotMedia(bytes: Uint8Array): string | undefined {
	if (sniffMediaType(bytes)?.types.some((type) => !type.startsWith('application/')))
		return undefined;
	for (const [signature, offset, what] of NOT_MEDIA) {
		if (signature.every((value, index) => bytes[offset + index] === value)) return what;
	}
	return undefined;
}
