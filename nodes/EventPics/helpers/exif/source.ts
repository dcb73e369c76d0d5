/** Random access to the bytes of a file. `read` may return fewer bytes than asked at the end of the data. */
export interface ByteSource {
	read(offset: number, length: number): Promise<Uint8Array>;
}

/** A ByteSource over a stream, with the count of bytes taken from the stream and a way to stop it. */
export interface StreamByteSource extends ByteSource {
	/** Bytes taken from the stream so far (may exceed what is kept when the last chunk crossed maxBytes). */
	readonly bytesPulled: number;
	/** Stops the stream (calls `return()` on its iterator) and frees what was kept. */
	close(): Promise<void>;
}

/**
 * How far into a file the reader looks by default, and how much a stream source keeps in memory: 1 MiB.
 * Every place EXIF is meant to live sits well inside it: a JPEG's APP1 (at most 64 KiB) precedes the image
 * data and in practice follows at most a few other APPn segments; TIFF-based RAW files (CR2, NEF, ARW,
 * DNG) keep IFD0 and the Exif IFD in their first few KiB; HEIF files from phones keep `meta` at the start;
 * PNG puts eXIf before IDAT. 1 MiB per item is a bounded, short-lived cost. Files whose EXIF follows the
 * image data (a HEIF whose Exif item is stored after a large `mdat`, a TIFF written by libtiff with IFD0
 * at the end) yield no date unless the caller raises the limit.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

function span(offset: number, length: number, size: number): [number, number] {
	const start = Math.min(Math.max(0, Math.floor(offset) || 0), size);
	return [start, Math.min(size, start + Math.max(0, Math.floor(length) || 0))];
}

export function bufferSource(bytes: Uint8Array): ByteSource {
	return {
		read: async (offset, length) => bytes.subarray(...span(offset, length, bytes.length)),
	};
}

/**
 * A sequential reader over a stream: it keeps every byte taken so far (at most maxBytes), answers reads
 * below that from memory, and pulls further chunks only when a read reaches past them. Bytes at or past
 * maxBytes are never kept: a read there returns what lies below maxBytes, possibly nothing.
 */
export function streamSource(
	stream: AsyncIterable<Uint8Array>,
	maxBytes: number = DEFAULT_MAX_BYTES,
): StreamByteSource {
	const limit = Math.max(0, Math.floor(maxBytes) || 0);
	let iterator: AsyncIterator<Uint8Array> | undefined;
	let kept = new Uint8Array(Math.min(limit, 64 * 1024));
	let have = 0;
	let pulled = 0;
	let done = false;
	let queue: Promise<unknown> = Promise.resolve();

	const keep = (chunk: Uint8Array) => {
		const take = Math.min(chunk.length, limit - have);
		if (have + take > kept.length) {
			const bigger = new Uint8Array(Math.min(limit, Math.max(have + take, kept.length * 2)));
			bigger.set(kept.subarray(0, have));
			kept = bigger;
		}
		kept.set(chunk.subarray(0, take), have);
		have += take;
	};

	const fill = async (end: number) => {
		while (!done && have < Math.min(end, limit)) {
			iterator ??= stream[Symbol.asyncIterator]();
			const next = await iterator.next();
			if (next.done) {
				done = true;
			} else {
				pulled += next.value.length;
				keep(next.value);
			}
		}
	};

	const read = async (offset: number, length: number) => {
		const [start, end] = span(offset, length, limit);
		await fill(end);
		return kept.slice(...span(start, end - start, have));
	};

	return {
		read(offset, length) {
			const result = queue.then(async () => await read(offset, length));
			queue = result.catch(() => undefined);
			return result;
		},
		get bytesPulled() {
			return pulled;
		},
		async close() {
			done = true;
			kept = new Uint8Array(0);
			have = 0;
			await iterator?.return?.();
		},
	};
}

/**
 * Bounds-checked reads: `bytes` returns exactly `length` bytes or undefined, never past `maxBytes`,
 * and undefined when the source throws or answers with something other than bytes.
 */
export class Reader {
	constructor(
		private readonly source: ByteSource,
		readonly maxBytes: number,
	) {}

	async bytes(offset: number, length: number): Promise<Uint8Array | undefined> {
		if (
			!Number.isSafeInteger(offset) ||
			!Number.isSafeInteger(length) ||
			offset < 0 ||
			length < 0
		) {
			return undefined;
		}
		if (offset + length > this.maxBytes) return undefined;
		let data: Uint8Array;
		try {
			data = await this.source.read(offset, length);
		} catch {
			return undefined; // a failing source is the same as no data: the caller gets no date
		}
		return data instanceof Uint8Array && data.length >= length
			? data.subarray(0, length)
			: undefined;
	}

	async view(offset: number, length: number): Promise<DataView | undefined> {
		const data = await this.bytes(offset, length);
		return data && new DataView(data.buffer, data.byteOffset, data.length);
	}
}
