import { sleep } from 'n8n-workflow';

import { shownSize } from '../helpers/size';

/**
 * The slowest link a transfer may be on: 256 kbit/s (32 KiB/s), below any uplink that still
 * carries photos (a 3G uplink gives 384 kbit/s and more). Used only where the node cannot see bytes
 * move (a file n8n holds in memory) or to bound a server that sends a byte now and then.
 */
export const SLOWEST_LINK_BYTES_PER_SECOND = 32 * 1024;

/** Why a watch ended a transfer. */
type WatchStop = 'stalled' | 'tooSlow' | 'deadline';

interface WatchLimits {
	/** No byte moved for this long ends the transfer (before the first byte too). */
	stallMs: number;
	/**
	 * Once `stallMs` has passed, the transfer must have moved at least this rate times the time
	 * since then: at most `stallMs + bytes / rate` in all, whatever a server drips.
	 */
	minBytesPerSecond?: number;
	/** A fixed end, for a transfer whose bytes cannot be seen moving. */
	deadlineMs?: number;
}

export interface TransferWatch {
	/** Aborted when a limit ended the transfer (hand it to the request). */
	readonly signal: AbortSignal;
	readonly stopped: WatchStop | undefined;
	/** Date.now() when the watch began. */
	readonly startedAt: number;
	/** Bytes counted so far. */
	readonly bytes: number;
	/** Counts bytes that moved (either way); each call restarts the stall clock. */
	moved: (bytes: number) => void;
	/** Nothing is expected to move for `ms` (bytes still on their way): the stall clock starts after. */
	expectQuiet: (ms: number) => void;
	/** The transfer is over: the watch stops checking. */
	end: () => void;
}

/** "45 s", "6 min", "6 min 20 s". */
export function shownDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	const rest = seconds % 60;
	return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

function stopReason(limits: WatchLimits, startedAt: number, lastAt: number, bytes: number) {
	const now = Date.now();
	if (limits.deadlineMs !== undefined && now - startedAt >= limits.deadlineMs) return 'deadline';
	if (now - lastAt >= limits.stallMs) return 'stalled';
	const rate = limits.minBytesPerSecond;
	const owedFor = now - startedAt - limits.stallMs;
	if (rate !== undefined && owedFor > 0 && bytes < (rate * owedFor) / 1000) return 'tooSlow';
	return undefined;
}

/**
 * A watchdog over one transfer, on n8n's `sleep` (no timers of our own): the caller counts the bytes
 * that move, the watch aborts `signal` when none moved for `stallMs`, when the transfer falls below
 * `minBytesPerSecond`, or at `deadlineMs`. It checks four times per limit, at most once a second.
 */
export function watchTransfer(limits: WatchLimits): TransferWatch {
	const controller = new AbortController();
	const startedAt = Date.now();
	let lastAt = startedAt;
	let bytes = 0;
	let ended = false;
	let stopped: WatchStop | undefined;
	const shortest = Math.min(limits.stallMs, limits.deadlineMs ?? Infinity);
	const every = Math.max(25, Math.min(1000, Math.floor(shortest / 4)));
	void (async () => {
		while (!ended && !stopped) {
			await sleep(every);
			if (ended) return;
			stopped = stopReason(limits, startedAt, lastAt, bytes);
			if (stopped) controller.abort(new Error(`The transfer was stopped: ${stopped}`));
		}
	})();
	return {
		signal: controller.signal,
		startedAt,
		get stopped() {
			return stopped;
		},
		get bytes() {
			return bytes;
		},
		moved: (count: number) => {
			bytes += count;
			lastAt = Math.max(lastAt, Date.now());
		},
		expectQuiet: (ms: number) => void (lastAt = Math.max(lastAt, Date.now() + ms)),
		end: () => void (ended = true),
	};
}

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
