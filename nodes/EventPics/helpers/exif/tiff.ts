import { ascii } from '../bytes';
import type { Reader } from './source';

/** Where a TIFF structure (header "II*\0" or "MM\0*") lives: offsets inside it count from `start`. */
export interface TiffLocation {
	reader: Reader;
	start: number;
	/** First byte after the structure (the end of a JPEG segment, a PNG chunk); Infinity for a TIFF file. */
	end: number;
}

export const TAG = {
	DateTime: 0x0132,
	ExifIfd: 0x8769,
	DateTimeOriginal: 0x9003,
	CreateDate: 0x9004,
	OffsetTime: 0x9010,
	OffsetTimeOriginal: 0x9011,
	OffsetTimeDigitized: 0x9012,
	SubSecTime: 0x9290,
	SubSecTimeOriginal: 0x9291,
	SubSecTimeDigitized: 0x9292,
} as const;

/** The tags read, each only from the IFD the Exif standard puts it in. */
const IFD0_TAGS = new Set<number>([TAG.DateTime]);
const EXIF_TAGS = new Set<number>([
	TAG.DateTimeOriginal,
	TAG.CreateDate,
	TAG.OffsetTime,
	TAG.OffsetTimeOriginal,
	TAG.OffsetTimeDigitized,
	TAG.SubSecTime,
	TAG.SubSecTimeOriginal,
	TAG.SubSecTimeDigitized,
]);

const TYPE_ASCII = 2;
const TYPE_LONG = 4;
const TYPE_IFD = 13;
/** More entries than this in one IFD is taken as corrupt (real IFD0s and Exif IFDs hold well under 100). */
const MAX_ENTRIES = 1000;
/** The longest text value read (a date is 20 bytes with its NUL). */
const MAX_TEXT = 64;

/** Text of an ASCII value up to its first NUL, one character per byte. */
function text(bytes: Uint8Array): string {
	const end = bytes.indexOf(0);
	return ascii(bytes, 0, end < 0 ? bytes.length : end);
}

/**
 * Reads the date tags from IFD0 and the Exif IFD it points to. Other IFDs (IFD1 thumbnails, SubIFDs,
 * maker notes) are never visited, so a chain of next-IFD pointers cannot make it loop; an Exif IFD pointer
 * that points back at IFD0 is ignored. Returns undefined when there is no valid TIFF header.
 */
export async function readTiffTags(at: TiffLocation): Promise<Map<number, string> | undefined> {
	const size = at.end - at.start;
	const view = async (offset: number, length: number) =>
		offset + length <= size ? await at.reader.view(at.start + offset, length) : undefined;

	const header = await view(0, 8);
	if (!header) return undefined;
	const order = header.getUint16(0);
	const little = order === 0x4949;
	if ((!little && order !== 0x4d4d) || header.getUint16(2, little) !== 42) return undefined;

	const found = new Map<number, string>();
	const readIfd = async (offset: number, wanted: Set<number>): Promise<number | undefined> => {
		const countView = await view(offset, 2);
		const count = countView?.getUint16(0, little) ?? 0;
		const entries = count <= MAX_ENTRIES ? await view(offset + 2, count * 12) : undefined;
		if (!entries) return undefined;
		let exifIfd: number | undefined;
		for (let i = 0; i < count * 12; i += 12) {
			const tag = entries.getUint16(i, little);
			const type = entries.getUint16(i + 2, little);
			const length = entries.getUint32(i + 4, little);
			if (tag === TAG.ExifIfd && (type === TYPE_LONG || type === TYPE_IFD) && length === 1) {
				exifIfd ??= entries.getUint32(i + 8, little);
			} else if (wanted.has(tag) && !found.has(tag) && type === TYPE_ASCII && length <= MAX_TEXT) {
				const value =
					length <= 4
						? new Uint8Array(entries.buffer, entries.byteOffset + i + 8, length)
						: await view(entries.getUint32(i + 8, little), length);
				if (value) found.set(tag, text(new Uint8Array(value.buffer, value.byteOffset, length)));
			}
		}
		return exifIfd;
	};

	const ifd0 = header.getUint32(4, little);
	const exifIfd = ifd0 >= 8 ? await readIfd(ifd0, IFD0_TAGS) : undefined;
	if (exifIfd !== undefined && exifIfd >= 8 && exifIfd !== ifd0) await readIfd(exifIfd, EXIF_TAGS);
	return found;
}
