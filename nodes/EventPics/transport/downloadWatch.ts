import { shownSize } from '../helpers/size';
import type { TransferWatch } from './transferWatch';

/** The stream parts the watch needs: a Node.js Readable (the body of a download). */
interface WatchedStream {
	readonly readableLength: number;
	readonly destroyed: boolean;
	push(chunk: unknown, encoding?: BufferEncoding): boolean;
	destroy(error?: Error): unknown;
}

interface DownloadWatch {
	/** Bytes received so far (buffered or passed on), whoever reads the stream. */
	readonly received: number;
	/** The size limit stopped the stream. */
	readonly tooLarge: boolean;
	/** Ends the watch (the download is over). */
	end(): void;
}

/**
 * Watches a download while another reader (n8n's binary store) consumes it: counts every byte its
 * source pushes (after those it already buffered) into the transfer's `watch`, destroys the stream
 * once they pass `maxBytes`, and when the watch ends the transfer (a stall, too slow).
 */
export function watchDownload(
	stream: WatchedStream,
	maxBytes: number,
	watch: TransferWatch,
): DownloadWatch {
	let received = stream.readableLength;
	let tooLarge = false;
	const stop = (message: string) => {
		if (!stream.destroyed) stream.destroy(new Error(message));
	};
	const onAbort = () => stop(`The download was stopped: ${watch.stopped ?? 'cancelled'}`);
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk !== null && chunk !== undefined) {
			const length = (chunk as { length: number }).length;
			received += length;
			watch.moved(length);
		}
		if (received <= maxBytes) return push(chunk, encoding);
		tooLarge = true;
		stop(`The file is larger than ${shownSize(maxBytes)}`);
		return false;
	};
	if (received > maxBytes) {
		tooLarge = true;
		stop(`The file is larger than ${shownSize(maxBytes)}`);
	}
	if (watch.signal.aborted) onAbort();
	else watch.signal.addEventListener('abort', onAbort, { once: true });

	return {
		get received() {
			return received;
		},
		get tooLarge() {
			return tooLarge;
		},
		end: () => watch.signal.removeEventListener('abort', onAbort),
	};
}
