import { JPEG_SIGNATURE, PNG_SIGNATURE, startsWith, TIFF_II, TIFF_MM } from '../bytes';
import { parseExifDate, parseOffset, parseSubSec } from './datetime';
import { findHeifExifItem } from './heif';
import { findJpegExif } from './jpeg';
import { findPngExif } from './png';
import { bufferSource, type ByteSource, DEFAULT_MAX_BYTES, Reader } from './source';
import { readTiffTags, TAG, type TiffLocation } from './tiff';

export { toEpochMs } from './datetime';
export { bufferSource, streamSource, DEFAULT_MAX_BYTES } from './source';
export type { ByteSource, StreamByteSource } from './source';

export interface ExifCaptureTime {
	/** 'YYYY-MM-DDTHH:mm:ss' or with '.SSS': the local time as written in the file. */
	dateTime: string;
	/** '+02:00': the offset written with that date, if any. */
	offset?: string;
	/** Which date it is: Exif DateTimeOriginal, CreateDate (DateTimeDigitized) or IFD0 DateTime. */
	tag: 'DateTimeOriginal' | 'CreateDate' | 'DateTime';
}

/** Each date tag with the offset and sub-second tags that belong to it, in the order they are tried. */
const CHOICES = [
	['DateTimeOriginal', TAG.DateTimeOriginal, TAG.OffsetTimeOriginal, TAG.SubSecTimeOriginal],
	['CreateDate', TAG.CreateDate, TAG.OffsetTimeDigitized, TAG.SubSecTimeDigitized],
	['DateTime', TAG.DateTime, TAG.OffsetTime, TAG.SubSecTime],
] as const;

/** Where the TIFF structure of a HEIF Exif item starts: after its 4-byte header size and that header. */
function heifTiff(item: Uint8Array): TiffLocation | undefined {
	const reader = new Reader(bufferSource(item), item.length);
	if (item.length < 8) return undefined;
	// tolerated like exiftool: the size field missing, before a TIFF header or an "Exif\0\0" header
	if (startsWith(item, TIFF_II) || startsWith(item, TIFF_MM))
		return { reader, start: 0, end: item.length };
	if (String.fromCharCode(...item.subarray(0, 6)) === 'Exif\0\0')
		return { reader, start: 6, end: item.length };
	const start = 4 + new DataView(item.buffer, item.byteOffset, 4).getUint32(0);
	return start < item.length ? { reader, start, end: item.length } : undefined;
}

async function findTiff(reader: Reader): Promise<TiffLocation | undefined> {
	const head = await reader.bytes(0, 8);
	if (!head) return undefined;
	if (startsWith(head, JPEG_SIGNATURE)) return await findJpegExif(reader);
	if (startsWith(head, TIFF_II) || startsWith(head, TIFF_MM))
		return { reader, start: 0, end: Infinity };
	if (startsWith(head, PNG_SIGNATURE)) return await findPngExif(reader);
	if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) {
		const item = await findHeifExifItem(reader);
		return item && heifTiff(item);
	}
	return undefined;
}

/**
 * When the photo was taken, from its EXIF: DateTimeOriginal, else CreateDate (DateTimeDigitized), else
 * IFD0 DateTime (the first of them that holds a valid date), with the offset and sub-seconds written for
 * that same date. Reads JPEG, TIFF-based RAW (TIFF, DNG, CR2, NEF, ARW), HEIF/AVIF and PNG, never past
 * `maxBytes` (default DEFAULT_MAX_BYTES). Never throws: missing, invalid, corrupt or truncated data, and
 * a source that fails, give undefined (the upload itself will meet a broken source again and report it).
 */
export async function readCaptureTime(
	source: ByteSource,
	limits?: { maxBytes?: number },
): Promise<ExifCaptureTime | undefined> {
	const reader = new Reader(source, limits?.maxBytes ?? DEFAULT_MAX_BYTES);
	let tags: Map<number, string> | undefined;
	try {
		const location = await findTiff(reader);
		tags = location && (await readTiffTags(location));
	} catch {
		return undefined; // a safety net: bad data is handled without exceptions, and must not fail the upload
	}
	for (const [tag, dateTag, offsetTag, subSecTag] of CHOICES) {
		const date = parseExifDate(tags?.get(dateTag) ?? '');
		if (date === undefined) continue;
		const subSec = parseSubSec(tags?.get(subSecTag) ?? '') ?? '';
		const offset = parseOffset(tags?.get(offsetTag) ?? '');
		return offset ? { dateTime: date + subSec, offset, tag } : { dateTime: date + subSec, tag };
	}
	return undefined;
}
