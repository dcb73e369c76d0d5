import { ascii } from '../bytes';
import { bufferSource, Reader } from './source';
import type { TiffLocation } from './tiff';

/** More chunks than this is taken as corrupt (real files have a few dozen). */
const MAX_CHUNKS = 10000;
/** The largest text chunk read when looking for a "Raw profile type exif". */
const MAX_TEXT_CHUNK = 256 * 1024;
const PROFILE_KEYWORDS = new Set(['Raw profile type exif', 'Raw profile type APP1']);

const EXIF_HEADER = 'Exif\0\0';

/**
 * Decodes an ImageMagick-style raw profile: "\n<name>\n<spaces><length>\n<hex digits and line breaks>".
 * Returns undefined on any other shape.
 */
function rawProfile(text: string): Uint8Array | undefined {
	const match = /^\n[^\n]*\n\s*\d+\n([0-9a-fA-F\s]*)$/.exec(text);
	const hex = match?.[1].replace(/\s+/g, '');
	if (hex === undefined || hex.length % 2 !== 0) return undefined;
	const bytes = new Uint8Array(hex.length / 2);
	for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
	return bytes;
}

/** The profile text of an uncompressed tEXt or iTXt chunk whose keyword names an EXIF raw profile. */
function profileText(type: string, data: Uint8Array): string | undefined {
	const keywordEnd = data.indexOf(0);
	if (keywordEnd < 0 || !PROFILE_KEYWORDS.has(ascii(data, 0, keywordEnd))) return undefined;
	if (type === 'tEXt') return ascii(data, keywordEnd + 1, data.length);
	// iTXt: keyword, NUL, compression flag, method, language tag, NUL, translated keyword, NUL, text
	if (data[keywordEnd + 1] !== 0) return undefined; // compressed: not read (would need inflate)
	const languageEnd = data.indexOf(0, keywordEnd + 3);
	const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
	return translatedEnd < 0 ? undefined : ascii(data, translatedEnd + 1, data.length);
}

/**
 * Finds EXIF in a PNG: the eXIf chunk (wherever it is, as some writers put it after IDAT), or failing
 * that an uncompressed tEXt/iTXt "Raw profile type exif" (or "APP1") as older ImageMagick versions wrote.
 * A leading "Exif\0\0" inside either is skipped. zTXt and compressed iTXt profiles are not read.
 */
export async function findPngExif(reader: Reader): Promise<TiffLocation | undefined> {
	let offset = 8; // after the signature
	for (let chunk = 0; chunk < MAX_CHUNKS; chunk++) {
		const head = await reader.view(offset, 8);
		if (!head) return undefined;
		const length = head.getUint32(0);
		const type = String.fromCharCode(
			head.getUint8(4),
			head.getUint8(5),
			head.getUint8(6),
			head.getUint8(7),
		);
		if (length > 0x7fffffff || type === 'IEND') return undefined;
		const start = offset + 8;
		if (type === 'eXIf') {
			const prefix = await reader.bytes(start, 6);
			const skip = prefix && ascii(prefix, 0, 6) === EXIF_HEADER ? 6 : 0;
			return { reader, start: start + skip, end: start + length };
		}
		if ((type === 'tEXt' || type === 'iTXt') && length <= MAX_TEXT_CHUNK) {
			const data = await reader.bytes(start, length);
			const text = data && profileText(type, data);
			const profile = text === undefined ? undefined : rawProfile(text);
			if (profile) {
				const skip = ascii(profile, 0, 6) === EXIF_HEADER ? 6 : 0;
				return {
					reader: new Reader(bufferSource(profile), profile.length),
					start: skip,
					end: profile.length,
				};
			}
		}
		offset = start + length + 4; // data and CRC
	}
	return undefined;
}
