import type { ExifCaptureTime } from '../../../helpers/exif';
import { bufferSource, DEFAULT_MAX_BYTES, readCaptureTime, toEpochMs } from '../../../helpers/exif';
import { SNIFF_BYTES } from '../../../helpers/sniff';
import type { Wholeness } from '../../../helpers/wholeness';
import { wholenessCheck } from '../../../helpers/wholeness';
import type { BinaryStream, TryBodies, UploadBody } from '../../../transport/upload';
import type { FileSource } from './fileSources';

/** What reading a file's start found. */
export interface Inspection {
	/** The first bytes of the file (SNIFF_BYTES at most): its format signature, or text. */
	head: Uint8Array;
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
	/** Whether the file's own structure says it is whole (helpers/wholeness.ts). */
	wholeness: Wholeness;
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

	/**
	 * Reads the file once, start to end: its first bytes and EXIF capture time (when asked) from its
	 * first MiB, and whether its structure says it is whole (a photo still being written is not).
	 */
	async readHead(wantsExif: boolean, timeZone: string): Promise<Inspection> {
		const body = await this.source.open();
		const check = wholenessCheck();
		if (Buffer.isBuffer(body)) {
			check.push(body);
			// in memory already: EXIF may be read past the first MiB
			return await inspect(body, wantsExif, timeZone, check);
		}
		const kept: Buffer[] = [];
		let keptBytes = 0;
		try {
			for await (const chunk of body) {
				const bytes = chunk as Buffer;
				check.push(bytes);
				if (keptBytes < DEFAULT_MAX_BYTES) {
					kept.push(bytes.subarray(0, DEFAULT_MAX_BYTES - keptBytes));
					keptBytes += kept[kept.length - 1].length;
				}
			}
		} finally {
			if (!body.destroyed) body.destroy();
		}
		return await inspect(Buffer.concat(kept), wantsExif, timeZone, check);
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

/** The first bytes, the EXIF capture time when asked, and the wholeness verdict, from the file's start (`head`). */
async function inspect(
	head: Buffer,
	wantsExif: boolean,
	timeZone: string,
	check: ReturnType<typeof wholenessCheck>,
): Promise<Inspection> {
	const result: Inspection = {
		head: head.subarray(0, SNIFF_BYTES),
		wholeness: check.verdict(head),
	};
	if (!wantsExif) return result;
	const exif = await readCaptureTime(bufferSource(head), { maxBytes: head.length });
	const takenAt = exif && toEpochMs(exif, timeZone);
	if (exif && takenAt !== undefined) {
		result.exif = exif;
		result.takenAt = takenAt;
	}
	return result;
}
