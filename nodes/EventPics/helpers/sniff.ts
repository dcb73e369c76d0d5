/**
 * What the first bytes of a file say it is, for the formats a photo album receives. Returns the
 * media types that fit those bytes (several for ISO-BMFF brands, where names differ), or undefined
 * when the bytes are not one of these formats.
 */
export interface Sniffed {
	label: string;
	types: string[];
}

/** Bytes that are enough for every signature below. */
export const SNIFF_BYTES = 32;

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'mif2']);
const HEIF_TYPES = ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'];
const MP4_TYPES = ['video/mp4', 'video/x-m4v', 'audio/mp4', 'audio/x-m4a', 'video/3gpp', 'video/3gpp2', 'video/quicktime'];

function ascii(bytes: Uint8Array, start: number, length: number): string {
	return String.fromCharCode(...bytes.subarray(start, start + length));
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	return signature.every((value, index) => bytes[offset + index] === value);
}

export function sniffMediaType(bytes: Uint8Array): Sniffed | undefined {
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { label: 'JPEG', types: ['image/jpeg', 'image/pjpeg'] };
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { label: 'PNG', types: ['image/png', 'image/apng'] };
	if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { label: 'GIF', types: ['image/gif'] };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return { label: 'WebP', types: ['image/webp'] };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'AVI ') return { label: 'AVI', types: ['video/x-msvideo', 'video/avi'] };
	if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
		// TIFF, and the camera RAW formats built on it
		return {
			label: 'TIFF',
			types: ['image/tiff', 'image/x-adobe-dng', 'image/x-canon-cr2', 'image/x-nikon-nef', 'image/x-sony-arw', 'image/x-panasonic-rw2', 'image/x-olympus-orf', 'image/x-pentax-pef', 'image/x-samsung-srw', 'image/x-fuji-raf', 'image/x-dcraw'],
		};
	}
	if (ascii(bytes, 0, 2) === 'BM') return { label: 'BMP', types: ['image/bmp', 'image/x-ms-bmp'] };
	if (ascii(bytes, 0, 5) === '%PDF-') return { label: 'PDF', types: ['application/pdf'] };
	if (ascii(bytes, 4, 4) === 'ftyp') {
		const brand = ascii(bytes, 8, 4);
		if (HEIF_BRANDS.has(brand)) return { label: `HEIF (${brand})`, types: HEIF_TYPES };
		if (brand === 'avif' || brand === 'avis') return { label: 'AVIF', types: ['image/avif'] };
		if (brand === 'qt  ') return { label: 'QuickTime', types: ['video/quicktime'] };
		if (brand === 'crx ') return { label: 'Canon CR3', types: ['image/x-canon-cr3'] };
		return { label: `MP4 (${brand.trim()})`, types: MP4_TYPES };
	}
	return undefined;
}

/** A warning when the bytes say another format than the type the file is sent as, else undefined. */
export function contentMismatch(bytes: Uint8Array, contentType: string, fileName: string): string | undefined {
	const sniffed = sniffMediaType(bytes);
	if (!sniffed || contentType === 'application/octet-stream' || sniffed.types.includes(contentType)) return undefined;
	return `"${fileName}" is sent as ${contentType} (from its name), but its bytes are ${sniffed.label} (${sniffed.types[0]}). Rename the file with the right extension if the album shows it wrong.`;
}

/** A warning when n8n's own MIME type of the binary disagrees with the type sent (from the name). */
export function mimeTypeMismatch(binaryMimeType: string | undefined, contentType: string, fileName: string): string | undefined {
	const own = binaryMimeType?.split(';')[0].trim().toLowerCase();
	if (!own || own === 'application/octet-stream' || own === contentType) return undefined;
	return `"${fileName}" is sent as ${contentType} (from its name), but the binary's MIME type is ${own}.`;
}
