import type { ExifCaptureTime } from '../../helpers/exif';
import { bufferSource, readCaptureTime, streamSource, toEpochMs } from '../../helpers/exif';
import { contentMismatch, SNIFF_BYTES } from '../../helpers/sniff';
import type { FileSource } from './fileSources';

export interface Inspection {
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
	/** The bytes say another format than the type the file is sent as. */
	mismatch?: string;
}

/**
 * Reads the start of a file, once, for what was asked: its EXIF capture time (the reader stops as
 * soon as it has it, and never reads past 1 MiB) and its format signature (32 bytes).
 */
export async function inspectFile(
	source: FileSource,
	wants: { exif: boolean; sniff: boolean },
	contentType: string,
	fileName: string,
	timeZone: string,
): Promise<Inspection> {
	if (!wants.exif && !wants.sniff) return {};
	const body = await source.inspect();
	const stream = Buffer.isBuffer(body) ? undefined : streamSource(body);
	const bytes = stream ?? bufferSource(body as Buffer);
	try {
		const result: Inspection = {};
		if (wants.sniff) result.mismatch = contentMismatch(await bytes.read(0, SNIFF_BYTES), contentType, fileName);
		if (wants.exif) {
			const exif = await readCaptureTime(bytes, Buffer.isBuffer(body) ? { maxBytes: body.length } : undefined);
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
