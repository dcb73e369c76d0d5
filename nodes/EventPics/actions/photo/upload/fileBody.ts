import type { ExifCaptureTime } from '../../../helpers/exif';
import { bufferSource, readCaptureTime, streamSource, toEpochMs } from '../../../helpers/exif';
import { SNIFF_BYTES } from '../../../helpers/sniff';
import type { BinaryStream, TryBodies, UploadBody } from '../../../transport/upload';
import type { FileSource } from './fileSources';

/** What reading a file's start found. */
export interface Inspection {
	/** The first bytes of the file (SNIFF_BYTES at most): its format signature, or text. */
	head: Uint8Array;
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
}

/**
 * The body of one upload, the one owner of its streams from open to dispose: `readHead` opens the file,
 * reads its start (format signature, EXIF) and closes it; every try of the PUT opens the file anew
 * (a stream is spent once sent) and `endTry` closes it when the try has ended; `dispose` closes what
 * is still open and lets go of a file held whole in memory.
 */
export class FileBody implements TryBodies {
	/** The stream of the try in flight. */
	private current: BinaryStream | undefined;

	constructor(private readonly source: FileSource) {}

	/** Reads the start of the file: its first bytes, and the EXIF capture time when asked (at most 1 MiB). */
	async readHead(wantsExif: boolean, timeZone: string): Promise<Inspection> {
		const body = await this.source.open();
		if (Buffer.isBuffer(body)) return await inspect(bufferSource(body), wantsExif, timeZone, body);
		const bytes = streamSource(body);
		try {
			return await inspect(bytes, wantsExif, timeZone);
		} finally {
			await bytes.close();
			if (!body.destroyed) body.destroy();
		}
	}

	/** The body for the next try of the PUT: the file opened anew. */
	async forTry(): Promise<UploadBody> {
		this.endTry();
		const body = await this.source.open();
		if (!Buffer.isBuffer(body)) this.current = body;
		return body;
	}

	/** Destroys the stream of the try that has ended (sent, failed or cut off). */
	endTry(): void {
		if (this.current && !this.current.destroyed) this.current.destroy();
		this.current = undefined;
	}

	/** Closes what is still open and frees a file that n8n's binary data mode made us hold in memory. */
	dispose(): void {
		this.endTry();
		this.source.dispose?.();
	}
}

/** The first bytes, and the EXIF capture time when asked (never past the buffer's end or 1 MiB). */
async function inspect(
	bytes: ReturnType<typeof bufferSource>,
	wantsExif: boolean,
	timeZone: string,
	whole?: Buffer,
): Promise<Inspection> {
	const result: Inspection = { head: await bytes.read(0, SNIFF_BYTES) };
	if (!wantsExif) return result;
	const exif = await readCaptureTime(bytes, whole ? { maxBytes: whole.length } : undefined);
	const takenAt = exif && toEpochMs(exif, timeZone);
	if (exif && takenAt !== undefined) {
		result.exif = exif;
		result.takenAt = takenAt;
	}
	return result;
}
