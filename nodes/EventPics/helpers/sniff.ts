import { ascii, JPEG_SIGNATURE, PNG_SIGNATURE, startsWith, TIFF_II, TIFF_MM } from './bytes';
import { shown } from './text';

/**
 * What the first bytes of a file say it is, for the formats a photo album receives. Returns the
 * media types that fit those bytes (several for ISO-BMFF brands, where names differ) and the
 * extension to name such a file with, or undefined when the bytes are not one of these formats.
 */
interface Sniffed {
	label: string;
	types: string[];
	/** The extension a file of this format is named with (mime-types gives its Content-Type). */
	extension: string;
}

/**
 * Bytes looked at: enough for every signature below, and for telling text (in UTF-8 or UTF-16, also
 * after leading NUL or control bytes) from binary data.
 */
export const SNIFF_BYTES = 512;

const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
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
	const classic = startsWith(bytes, TIFF_II) || startsWith(bytes, TIFF_MM);
	const big =
		startsWith(bytes, [0x49, 0x49, 0x2b, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2b]);
	if (classic || big) {
		return ascii(bytes, 8, 10) === 'CR' ? raw('Canon CR2', 'cr2') : raw('TIFF', 'tif');
	}
	return undefined;
}

export function sniffMediaType(bytes: Uint8Array): Sniffed | undefined {
	if (startsWith(bytes, JPEG_SIGNATURE))
		return { label: 'JPEG', types: ['image/jpeg', 'image/pjpeg'], extension: 'jpg' };
	if (startsWith(bytes, PNG_SIGNATURE))
		return { label: 'PNG', types: ['image/png', 'image/apng'], extension: 'png' };
	if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')
		return { label: 'GIF', types: ['image/gif'], extension: 'gif' };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
		return { label: 'WebP', types: ['image/webp'], extension: 'webp' };
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'AVI ')
		return { label: 'AVI', types: ['video/x-msvideo', 'video/avi'], extension: 'avi' };
	const tiff = sniffTiffFamily(bytes);
	if (tiff) return tiff;
	if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 14)
		return { label: 'BMP', types: ['image/bmp', 'image/x-ms-bmp'], extension: 'bmp' };
	if (ascii(bytes, 0, 5) === '%PDF-')
		return { label: 'PDF', types: ['application/pdf'], extension: 'pdf' };
	if (ascii(bytes, 4, 8) === 'ftyp') return sniffIsoMedia(ascii(bytes, 8, 12));
	if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
		const webm = ascii(bytes, 0, bytes.length).includes('webm');
		return webm
			? { label: 'WebM', types: ['video/webm', 'audio/webm'], extension: 'webm' }
			: { label: 'Matroska', types: ['video/x-matroska', 'audio/x-matroska'], extension: 'mkv' };
	}
	// MPEG program stream (pack header) or MPEG-1/2 video (sequence header)
	if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba]) || startsWith(bytes, [0x00, 0x00, 0x01, 0xb3]))
		return { label: 'MPEG', types: ['video/mpeg'], extension: 'mpg' };
	// QuickTime and MP4 files of old cameras start with a movie atom instead of `ftyp` (its size
	// first: under 16 MiB but for a media data atom, so the first byte is 0)
	const atom = ascii(bytes, 4, 8);
	if (QUICKTIME_ATOMS.has(atom) && (bytes[0] === 0 || atom === 'mdat'))
		return { label: 'QuickTime', types: MP4_TYPES, extension: 'mov' };
	return undefined;
}

/** Media types the content of a file can be checked against: those of the formats above. */
export const CHECKABLE_TYPES: ReadonlySet<string> = new Set(
	[
		['image/jpeg', 'image/pjpeg', 'image/png', 'image/apng', 'image/gif', 'image/webp'],
		['video/x-msvideo', 'video/avi', 'image/tiff', 'image/bmp', 'image/x-ms-bmp', 'image/avif'],
		['video/webm', 'video/x-matroska', 'video/mpeg', ...HEIF_TYPES],
		MP4_TYPES.filter((type) => type.startsWith('video/')),
	].flat(),
);

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
