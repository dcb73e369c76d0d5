import { shown } from './text';

/**
 * What the first bytes of a file say it is, for the formats a photo album receives. Returns the
 * media types that fit those bytes (several for ISO-BMFF brands, where names differ) and the
 * extension to name such a file with, or undefined when the bytes are not one of these formats.
 */
export interface Sniffed {
	label: string;
	types: string[];
	/** The extension a file of this format is named with (mime-types gives its Content-Type). */
	extension: string;
}

/** Bytes that are enough for every signature below and for telling text from binary data. */
export const SNIFF_BYTES = 64;

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'mif2']);
const HEIF_SEQUENCE_BRANDS = new Set(['hevc', 'hevx', 'msf1']);
const HEIF_TYPES = ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'];
const MP4_TYPES = [
	'video/mp4',
	'video/x-m4v',
	'audio/mp4',
	'audio/x-m4a',
	'video/3gpp',
	'video/3gpp2',
	'video/quicktime',
];
const TIFF_TYPES = [
	'image/tiff',
	'image/x-adobe-dng',
	'image/x-canon-cr2',
	'image/x-nikon-nef',
	'image/x-sony-arw',
	'image/x-panasonic-rw2',
	'image/x-olympus-orf',
	'image/x-pentax-pef',
	'image/x-samsung-srw',
	'image/x-fuji-raf',
	'image/x-dcraw',
];

function ascii(bytes: Uint8Array, start: number, length: number): string {
	return String.fromCharCode(...bytes.subarray(start, start + length));
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	return signature.every((value, index) => bytes[offset + index] === value);
}

/** ISO base media files (MP4, MOV, HEIF, AVIF, CR3): the major brand of their `ftyp` box. */
function sniffIsoMedia(brand: string): Sniffed {
	if (HEIC_BRANDS.has(brand))
		return { label: `HEIF (${brand})`, types: HEIF_TYPES, extension: 'heic' };
	if (HEIF_BRANDS.has(brand))
		return { label: `HEIF (${brand})`, types: HEIF_TYPES, extension: 'heif' };
	if (HEIF_SEQUENCE_BRANDS.has(brand))
		return { label: `HEIF (${brand})`, types: HEIF_TYPES, extension: 'heics' };
	if (brand === 'avif' || brand === 'avis')
		return { label: 'AVIF', types: ['image/avif'], extension: 'avif' };
	if (brand === 'qt  ') return { label: 'QuickTime', types: ['video/quicktime'], extension: 'mov' };
	if (brand === 'crx ')
		return { label: 'Canon CR3', types: ['image/x-canon-cr3'], extension: 'cr3' };
	const extension =
		brand === 'M4V '
			? 'm4v'
			: brand === 'M4A '
				? 'm4a'
				: brand.startsWith('3g2')
					? '3g2'
					: brand.startsWith('3gp')
						? '3gp'
						: 'mp4';
	return { label: `MP4 (${brand.trim()})`, types: MP4_TYPES, extension };
}

/** TIFF and the camera RAW formats built on it or close to it. */
function sniffTiffFamily(bytes: Uint8Array): Sniffed | undefined {
	const raw = (label: string, extension: string): Sniffed => ({
		label,
		types: TIFF_TYPES,
		extension,
	});
	if (
		ascii(bytes, 0, 4) === 'IIRO' ||
		ascii(bytes, 0, 4) === 'IIRS' ||
		ascii(bytes, 0, 4) === 'MMOR'
	)
		return raw('Olympus ORF', 'orf');
	if (startsWith(bytes, [0x49, 0x49, 0x55, 0x00])) return raw('Panasonic RW2', 'rw2');
	if (ascii(bytes, 0, 15) === 'FUJIFILMCCD-RAW') return raw('Fujifilm RAF', 'raf');
	if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
		return ascii(bytes, 8, 2) === 'CR' ? raw('Canon CR2', 'cr2') : raw('TIFF', 'tif');
	}
	return undefined;
}

export function sniffMediaType(bytes: Uint8Array): Sniffed | undefined {
	if (startsWith(bytes, [0xff, 0xd8, 0xff]))
		return { label: 'JPEG', types: ['image/jpeg', 'image/pjpeg'], extension: 'jpg' };
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
		return { label: 'PNG', types: ['image/png', 'image/apng'], extension: 'png' };
	if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')
		return { label: 'GIF', types: ['image/gif'], extension: 'gif' };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
		return { label: 'WebP', types: ['image/webp'], extension: 'webp' };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'AVI ')
		return { label: 'AVI', types: ['video/x-msvideo', 'video/avi'], extension: 'avi' };
	const tiff = sniffTiffFamily(bytes);
	if (tiff) return tiff;
	if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 14)
		return { label: 'BMP', types: ['image/bmp', 'image/x-ms-bmp'], extension: 'bmp' };
	if (ascii(bytes, 0, 5) === '%PDF-')
		return { label: 'PDF', types: ['application/pdf'], extension: 'pdf' };
	if (ascii(bytes, 4, 4) === 'ftyp') return sniffIsoMedia(ascii(bytes, 8, 4));
	if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
		const webm = ascii(bytes, 0, bytes.length).includes('webm');
		return webm
			? { label: 'WebM', types: ['video/webm', 'audio/webm'], extension: 'webm' }
			: { label: 'Matroska', types: ['video/x-matroska', 'audio/x-matroska'], extension: 'mkv' };
	}
	if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba]))
		return { label: 'MPEG', types: ['video/mpeg'], extension: 'mpg' };
	return undefined;
}

/** Media types whose content is text by nature. */
export function isTextualType(contentType: string): boolean {
	return (
		contentType.startsWith('text/') ||
		contentType.endsWith('+xml') ||
		contentType.endsWith('+json') ||
		['application/json', 'application/xml', 'application/javascript'].includes(contentType)
	);
}

/** Shortest start of a file that is called text; a few letters could still be anything. */
const MIN_TEXT_BYTES = 8;

/**
 * What kind of text the first bytes are (HTML, XML, JSON or plain text), or undefined when they hold
 * bytes no text has (NUL, most control characters, invalid UTF-8) or are too few to tell.
 */
export function sniffText(bytes: Uint8Array): string | undefined {
	if (bytes.length < MIN_TEXT_BYTES || sniffMediaType(bytes)) return undefined;
	for (const byte of bytes) {
		if ((byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(byte)) || byte === 0x7f)
			return undefined;
	}
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
	} catch {
		return undefined;
	}
	const start = text
		.replace(/^\uFEFF/, '')
		.trimStart()
		.toLowerCase();
	if (/^<(!doctype html|html|head|body|script|meta|title|div|p[\s>]|!--)/.test(start))
		return 'HTML';
	if (start.startsWith('<?xml') || start.startsWith('<')) return 'XML or markup';
	if (start.startsWith('{') || start.startsWith('[')) return 'JSON';
	return 'text';
}

/** A warning when the bytes say another format than the type the file is sent as, else undefined. */
export function contentMismatch(
	bytes: Uint8Array,
	contentType: string,
	fileName: string,
): string | undefined {
	const sniffed = sniffMediaType(bytes);
	if (!sniffed || contentType === 'application/octet-stream' || sniffed.types.includes(contentType))
		return undefined;
	return `"${fileName}" is sent as ${contentType} (from its name), but its bytes are ${sniffed.label} (${sniffed.types[0]}). Rename the file with the right extension if the album shows it wrong.`;
}

/** A warning when n8n's own MIME type of the binary disagrees with the type sent (from the name). */
export function mimeTypeMismatch(
	binaryMimeType: string | undefined,
	contentType: string,
	fileName: string,
): string | undefined {
	const own = binaryMimeType?.slice(0, 1000).split(';')[0].trim().toLowerCase();
	if (!own || own === 'application/octet-stream' || own === contentType) return undefined;
	return `"${fileName}" is sent as ${contentType} (from its name), but the binary's MIME type is ${shown(own)}.`;
}
