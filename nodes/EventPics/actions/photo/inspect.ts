import type { ExifCaptureTime } from '../../helpers/exif';
import { bufferSource, readCaptureTime, streamSource, toEpochMs } from '../../helpers/exif';
import { SNIFF_BYTES } from '../../helpers/sniff';
import type { UploadBody } from '../../transport/upload';
import type { FileSource } from './fileSources';
import type { HeldBody } from './keptStream';
import { keepStream } from './keptStream';
import type { UploadJob } from './itemJobs';

export interface Inspection {
	/** The first bytes of the file (SNIFF_BYTES at most): its format signature, or text. */
	head: Uint8Array;
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
	/** The stream that was read, back at its start, for the first PUT (a stored file is opened once). */
	held?: HeldBody;
}

async function look(
	bytes: ReturnType<typeof bufferSource>,
	wantsExif: boolean,
	timeZone: string,
	maxBytes: number | undefined,
): Promise<Inspection> {
	const result: Inspection = { head: await bytes.read(0, SNIFF_BYTES) };
	if (wantsExif) {
		const exif = await readCaptureTime(bytes, maxBytes === undefined ? undefined : { maxBytes });
		const takenAt = exif && toEpochMs(exif, timeZone);
		if (exif && takenAt !== undefined) {
			result.exif = exif;
			result.takenAt = takenAt;
		}
	}
	return result;
}

/**
 * Reads the start of a file, once: its first bytes (what it is) and, when asked, its EXIF capture
 * time (the reader stops as soon as it has it, and never reads past 1 MiB). A streamed file is then
 * put back to its start and held for the PUT, so the first try of the upload does not open it again.
 */
export async function inspectFile(
	source: FileSource,
	wantsExif: boolean,
	timeZone: string,
): Promise<Inspection> {
	const body: UploadBody = await source.open();
	if (Buffer.isBuffer(body))
		return await look(bufferSource(body), wantsExif, timeZone, body.length);
	if (typeof body.read !== 'function' || typeof body.unshift !== 'function') {
		// not a Node.js readable after all: look through its iterator, and the PUT opens it anew
		const plain = streamSource(body);
		try {
			return await look(plain, wantsExif, timeZone, undefined);
		} finally {
			await plain.close();
		}
	}
	const kept = keepStream(body);
	const bytes = streamSource(kept.chunks);
	let result: Inspection | undefined;
	try {
		result = await look(bytes, wantsExif, timeZone, undefined);
	} finally {
		await bytes.close();
		// when the look failed, nothing is held for the PUT
		if (result === undefined) kept.rewind()?.release();
	}
	return { ...result, held: kept.rewind() };
}

/**
 * The body for each try of the PUT: the held stream first (when the look could keep it), then the
 * file opened anew for every retry (a stream is spent once sent).
 */
export function bodyOpener(source: FileSource, inspection: Inspection): () => Promise<UploadBody> {
	return async () => inspection.held?.take() ?? (await source.open());
}

/** The Taken At sent, and where it came from. */
export function chooseTakenAt(
	job: UploadJob,
	inspection: Inspection,
): { takenAt?: number; takenAtSource: string | null } {
	if (inspection.takenAt !== undefined)
		return { takenAt: inspection.takenAt, takenAtSource: 'exif' };
	const { fallback, value } = job.takenAt;
	if (fallback === 'now') return { takenAt: Date.now(), takenAtSource: 'now' };
	if (fallback === 'value' && value !== undefined)
		return { takenAt: value, takenAtSource: 'value' };
	return { takenAtSource: null };
}
