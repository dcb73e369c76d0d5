import type { ExifCaptureTime } from '../../helpers/exif';
import { bufferSource, readCaptureTime, streamSource, toEpochMs } from '../../helpers/exif';
import { SNIFF_BYTES } from '../../helpers/sniff';
import type { FileSource } from './fileSources';

export interface Inspection {
	/** The first bytes of the file (SNIFF_BYTES at most): its format signature, or text. */
	head: Uint8Array;
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
}

/**
 * Reads the start of a file, once: its first bytes (what it is) and, when asked, its EXIF capture
 * time (the reader stops as soon as it has it, and never reads past 1 MiB).
 */
export async function inspectFile(
	source: FileSource,
	wantsExif: boolean,
	timeZone: string,
): Promise<Inspection> {
	const body = await source.open();
	const stream = Buffer.isBuffer(body) ? undefined : streamSource(body);
	const bytes = stream ?? bufferSource(body as Buffer);
	try {
		const result: Inspection = { head: await bytes.read(0, SNIFF_BYTES) };
		if (wantsExif) {
			const exif = await readCaptureTime(
				bytes,
				Buffer.isBuffer(body) ? { maxBytes: body.length } : undefined,
			);
			const takenAt = exif && toEpochMs(exif, timeZone);
			if (exif && takenAt !== undefined) {
				result.exif = exif;
				result.takenAt = takenAt;
			}
		}
		return result;
	} finally {
		if (stream) await stream.close();
	}
}
