import { ascii } from '../bytes';
import type { Reader } from './source';
import type { TiffLocation } from './tiff';

/** More chunks than this is taken as corrupt (real files have a few dozen). */
const MAX_CHUNKS = 10000;

/**
 * Finds the eXIf chunk of a PNG, wherever it is (ImageMagick writes it after IDAT); a leading
 * "Exif\0\0" inside it is skipped. A "Raw profile type exif" text chunk is not read: a compressed one
 * would need inflate, and no writer of the test corpus makes the uncompressed kind.
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
			const skip = prefix && ascii(prefix, 0, 6) === 'Exif\0\0' ? 6 : 0;
			return { reader, start: start + skip, end: start + length };
		}
		offset = start + length + 4; // data and CRC
	}
	return undefined;
}
