import type { Reader } from './source';
import type { TiffLocation } from './tiff';

/** More segments than this before the image data is taken as corrupt (real files have a few dozen). */
const MAX_SEGMENTS = 1000;

/**
 * Finds the first APP1 segment that starts with "Exif\0" among the segments before the image data
 * (SOS), in whatever order the APPn segments come. Reads only the 4-byte segment headers it passes.
 */
export async function findJpegExif(reader: Reader): Promise<TiffLocation | undefined> {
	let offset = 2; // after SOI
	for (let segment = 0; segment < MAX_SEGMENTS; segment++) {
		const head = await reader.bytes(offset, 4);
		if (!head || head[0] !== 0xff) return undefined;
		const marker = head[1];
		if (marker === 0xff) {
			offset += 1; // fill byte
			continue;
		}
		if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			offset += 2; // markers without a length
			continue;
		}
		if (marker === 0xda || marker === 0xd9) return undefined; // image data or end: no EXIF
		const length = (head[2] << 8) | head[3];
		if (length < 2) return undefined;
		if (marker === 0xe1 && length >= 8) {
			const id = await reader.bytes(offset + 4, 5);
			if (id && String.fromCharCode(...id) === 'Exif\0') {
				return { reader, start: offset + 10, end: offset + 2 + length };
			}
		}
		offset += 2 + length;
	}
	return undefined;
}
