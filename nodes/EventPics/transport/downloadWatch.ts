import { sleep } from 'n8n-workflow';

/** The stream parts the watch needs: a Node.js Readable (the body of a download). */
export interface WatchedStream {
	readonly readableLength: number;
	readonly destroyed: boolean;
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): unknown;
}

export interface DownloadWatch {
	/** Bytes received so far (buffered or passed on), whoever reads the stream. */
	readonly received: number;
	/** Why the watch stopped the stream, if it did. */
	readonly stopped?: 'tooLarge' | 'stalled';
	/** Ends the watch (the download is over). */
	end(): void;
}

/**
 * Watches a download while another reader (n8n's binary store) consumes it: counts every byte its
 * source pushes (after those it already buffered) and destroys it once they pass `maxBytes`, or
 * when no byte came for `idleMs` (checked each second, or each `idleMs` when shorter).
 */
export function watchDownload(
	stream: WatchedStream,
	maxBytes: number,
	idleMs: number,
): DownloadWatch {
	let received = stream.readableLength;
	let stopped: DownloadWatch['stopped'];
	let ended = false;
	let lastByteAt = Date.now();
	const stop = (why: 'tooLarge' | 'stalled', message: string) => {
		if (stopped) return;
		stopped = why;
		stream.destroy(new Error(message));
	};
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk !== null && chunk !== undefined) {
			received += (chunk as { length: number }).length;
			lastByteAt = Date.now();
		}
		if (received <= maxBytes) return push(chunk, encoding);
		stop('tooLarge', `The file is larger than ${maxBytes} bytes`);
		return false;
	};
	if (received > maxBytes) stop('tooLarge', `The file is larger than ${maxBytes} bytes`);

	const every = Math.min(1000, idleMs);
	void (async () => {
		while (!ended && !stopped && !stream.destroyed) {
			await sleep(every);
			if (!ended && Date.now() - lastByteAt > idleMs) stop('stalled', `No data for ${idleMs} ms`);
		}
	})();

	return {
		get received() {
			return received;
		},
		get stopped() {
			return stopped;
		},
		end: () => void (ended = true),
	};
}
