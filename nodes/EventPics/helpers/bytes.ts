/**
 * Reading bytes as signatures and text: the one set of helpers behind the format checks
 * (helpers/sniff.ts) and the EXIF readers (helpers/exif/).
 */

export const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A TIFF header, little-endian ("II") and big-endian ("MM"): TIFF files and EXIF blocks start so. */
export const TIFF_II = [0x49, 0x49, 0x2a, 0x00];
export const TIFF_MM = [0x4d, 0x4d, 0x00, 0x2a];

/** Whether `bytes` holds `signature` at `at`. */
export function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
	return signature.every((value, index) => bytes[at + index] === value);
}

/** bytes[start, end) as text, one character per byte (read in pieces: any length is safe). */
export function ascii(bytes: Uint8Array, start: number, end: number): string {
	let text = '';
	for (let at = start; at < Math.min(end, bytes.length); at += 8192) {
		text += String.fromCharCode(...bytes.subarray(at, Math.min(end, at + 8192)));
	}
	return text;
}
