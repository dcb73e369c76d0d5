import type { BinaryStream } from '../../transport/upload';

/**
 * A stored file's stream read from its start for a look (format signature, EXIF) and then put back:
 * every chunk taken is pushed back in front of the stream, so the same open stream can be sent whole
 * by the PUT and the file is opened once per upload try instead of twice.
 *
 * Chunks are pulled with `read()` (paused mode, never flowing), so nothing is lost between the look and
 * the PUT. When the look reached the end of the file (the stream emitted 'end', which cannot be undone),
 * the stream failed, or it gives something other than bytes, there is nothing to hold and the caller
 * opens the file anew.
 */
export interface KeptStream {
	/** The chunks of the stream, for a reader; stopping the iteration leaves the stream open. */
	chunks: AsyncIterable<Uint8Array>;
	/** Puts the chunks taken back; undefined (and the stream destroyed) when that is not possible. */
	rewind: () => HeldBody | undefined;
}

/** A stream back at its start, held until the PUT takes it. */
export interface HeldBody {
	/** The stream for the PUT, once; undefined when it failed while held (it is then destroyed). */
	take: () => BinaryStream | undefined;
	/** Destroys the stream if the PUT never took it. */
	release: () => void;
}
export function keepStream(stream: BinaryStream): KeptStream {
	const taken: Buffer[] = [];
	let usable = true;
	let failure: unknown;
	// while the stream is held between the look and the PUT, an error must not go unhandled
	const onError = (error: unknown) => {
		failure ??= error;
		usable = false;
	};
	stream.on('error', onError);

	const waitForData = async () =>
		await new Promise<void>((resolve) => {
			const done = () => {
				stream.removeListener('readable', done);
				stream.removeListener('end', done);
				stream.removeListener('error', done);
				stream.removeListener('close', done);
				resolve();
			};
			stream.once('readable', done);
			stream.once('end', done);
			stream.once('error', done);
			stream.once('close', done);
		});

	const next = async (): Promise<IteratorResult<Uint8Array>> => {
		for (;;) {
			if (failure !== undefined) throw failure;
			if (stream.readableEnded || stream.destroyed) {
				usable = false;
				return { done: true, value: undefined };
			}
			const chunk = stream.read() as unknown;
			if (chunk !== null) {
				if (!Buffer.isBuffer(chunk)) {
					usable = false;
					return { done: true, value: undefined };
				}
				taken.push(chunk);
				return { done: false, value: chunk };
			}
			await waitForData();
		}
	};

	return {
		chunks: {
			[Symbol.asyncIterator]: () => ({
				next,
				return: async () => ({ done: true, value: undefined }),
			}),
		},
		rewind: () => {
			if (!usable || stream.readableEnded || stream.destroyed) {
				stream.removeListener('error', onError);
				if (!stream.destroyed) stream.destroy();
				return undefined;
			}
			for (let i = taken.length - 1; i >= 0; i--) stream.unshift(taken[i]);
			taken.length = 0;
			let held = true;
			const take = () => {
				if (!held) return undefined;
				held = false;
				stream.removeListener('error', onError);
				if (usable && !stream.destroyed) return stream;
				if (!stream.destroyed) stream.destroy();
				return undefined;
			};
			// a stream nobody takes is taken here and destroyed
			return { take, release: () => take()?.destroy() };
		},
	};
}
