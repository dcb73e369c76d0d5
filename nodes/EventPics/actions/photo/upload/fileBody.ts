import type { ExifCaptureTime } from '../../../helpers/exif';
import { bufferSource, readCaptureTime, streamSource, toEpochMs } from '../../../helpers/exif';
import { SNIFF_BYTES } from '../../../helpers/sniff';
import type { BinaryStream, TryBodies, UploadBody } from '../../../transport/upload';
import type { FileSource } from './fileSources';

/** What the look at a file's start found. */
export interface Inspection {
	/** The first bytes of the file (SNIFF_BYTES at most): its format signature, or text. */
	head: Uint8Array;
	/** Capture time from EXIF, as Unix milliseconds, when asked for and found. */
	takenAt?: number;
	exif?: ExifCaptureTime;
}

type Bytes = ReturnType<typeof bufferSource>;

/** Whether a body is a Node.js readable whose chunks can be taken with read() and put back. */
function canPutBack(body: BinaryStream): boolean {
	return typeof body.read === 'function' && typeof body.unshift === 'function';
}

/**
 * The body of one upload, the one owner of its streams from open to dispose:
 * - `look` opens the file and reads its start once (format signature, EXIF). A stored file's
 *   stream is then put back to its start and held, so the first try of the PUT does not open the
 *   file again;
 * - `forTry` hands the held stream to the first try, and opens the file anew for every retry (a
 *   stream is spent once sent); `endTry` destroys a try's stream once its PUT has ended;
 * - `dispose` destroys whatever is still open and lets go of a file held whole in memory.
 *
 * The stream is read with `read()` (paused mode, never flowing), so nothing is lost between the look
 * and the PUT. When the look reached the end of the file (the stream emitted 'end', which cannot be
 * undone), the stream failed, or it gives something other than bytes, nothing is held and the first
 * try opens the file anew.
 */
export class FileBody implements TryBodies {
	/** The stream read for the look, back at its start, until the first try takes it. */
	private held: BinaryStream | undefined;

	/** The stream of the try in flight (destroyed when the next try opens or on dispose). */
	private current: BinaryStream | undefined;

	/** Why the held stream cannot be sent: it failed, or ended, or gave no bytes. */
	private spoiled = false;

	private failure: unknown;

	private readonly onError = (error: unknown) => {
		this.failure ??= error;
		this.spoiled = true;
	};

	constructor(private readonly source: FileSource) {}

	/** Reads the start of the file, once: see the class. The reader never reads past 1 MiB. */
	async look(wantsExif: boolean, timeZone: string): Promise<Inspection> {
		const body = await this.source.open();
		if (Buffer.isBuffer(body)) return await inspect(bufferSource(body), wantsExif, timeZone, body);
		const stream = body;
		if (!canPutBack(stream)) return await this.lookThrough(stream, wantsExif, timeZone);
		stream.on('error', this.onError);
		const taken: Buffer[] = [];
		const bytes = streamSource(this.chunksOf(stream, taken));
		let looked = false;
		try {
			const result = await inspect(bytes, wantsExif, timeZone);
			looked = true;
			return result;
		} finally {
			await bytes.close();
			// when the look failed, nothing is held for the PUT
			this.hold(stream, taken, looked);
		}
	}

	/** The body for the next try of the PUT: the held stream first, then the file opened anew. */
	async forTry(): Promise<UploadBody> {
		this.endTry();
		const held = this.takeHeld();
		const body = held ?? (await this.source.open());
		if (!Buffer.isBuffer(body)) this.current = body;
		return body;
	}

	/** Destroys what is still open (a held stream, the last try's) and frees a file held in memory. */
	dispose(): void {
		this.takeHeld()?.destroy();
		this.endTry();
		// a file that n8n's binary data mode made us hold whole in memory is let go at once
		this.source.dispose?.();
	}

	/** Not a Node.js readable after all: looked at through its iterator; the PUT opens it anew. */
	private async lookThrough(stream: BinaryStream, wantsExif: boolean, timeZone: string) {
		const plain = streamSource(stream);
		try {
			return await inspect(plain, wantsExif, timeZone);
		} finally {
			await plain.close();
		}
	}

	/** Puts the chunks taken back in front of the stream and holds it; or destroys it. */
	private hold(stream: BinaryStream, taken: Buffer[], looked: boolean) {
		if (!looked || this.spoiled || stream.readableEnded || stream.destroyed) {
			stream.removeListener('error', this.onError);
			if (!stream.destroyed) stream.destroy();
			return;
		}
		for (let i = taken.length - 1; i >= 0; i--) stream.unshift(taken[i]);
		this.held = stream;
	}

	/** The held stream, once; undefined when none, or when it failed while held (then destroyed). */
	private takeHeld(): BinaryStream | undefined {
		const stream = this.held;
		this.held = undefined;
		if (!stream) return undefined;
		stream.removeListener('error', this.onError);
		if (!this.spoiled && !stream.destroyed) return stream;
		if (!stream.destroyed) stream.destroy();
		return undefined;
	}

	/** Destroys the stream of the try that has ended (sent, failed or cut off). */
	endTry(): void {
		if (this.current && !this.current.destroyed) this.current.destroy();
		this.current = undefined;
	}

	/** The stream's chunks for a reader, each also kept in `taken`; stopping leaves the stream open. */
	private chunksOf(stream: BinaryStream, taken: Buffer[]): AsyncIterable<Uint8Array> {
		const next = async (): Promise<IteratorResult<Uint8Array>> => {
			for (;;) {
				if (this.failure !== undefined) throw this.failure;
				if (stream.readableEnded || stream.destroyed) return this.spoil();
				const chunk = stream.read() as unknown;
				if (chunk === null) {
					await readable(stream);
					continue;
				}
				if (!Buffer.isBuffer(chunk)) return this.spoil();
				taken.push(chunk);
				return { done: false, value: chunk };
			}
		};
		const end = async () => ({ done: true as const, value: undefined });
		return { [Symbol.asyncIterator]: () => ({ next, return: end }) };
	}

	private spoil(): IteratorResult<Uint8Array> {
		this.spoiled = true;
		return { done: true, value: undefined };
	}
}

/** Waits until the stream has data to read, ends, fails or closes. */
async function readable(stream: BinaryStream): Promise<void> {
	const events = ['readable', 'end', 'error', 'close'] as const;
	await new Promise<void>((resolve) => {
		const done = () => {
			for (const event of events) stream.removeListener(event, done);
			resolve();
		};
		for (const event of events) stream.once(event, done);
	});
}

/** The first bytes, and the EXIF capture time when asked (never past the buffer's end or 1 MiB). */
async function inspect(
	bytes: Bytes,
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
