import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { EventPicsError, progress } from '../helpers/errors';
import { fileNameFromDisposition, sanitizeFileName } from '../helpers/fileName';
import { capText, headerText, shown, shownDuration, shownSize } from '../helpers/text';
import { checkedTarget } from './egress';
import type { TransferWatch } from './request';
import {
	callerWith,
	networkFacts,
	REDIRECTS,
	SLOWEST_LINK_BYTES_PER_SECOND,
	watchTransfer,
	withCancel,
} from './request';
import type { BinaryStream } from './upload';

/** An address as errors and output show it: without user name or password, at most 2,000 characters. */
export function shownUrl(url: URL): string {
	const copy = new URL(url.href);
	[copy.username, copy.password] = ['', ''];
	return capText(copy.href, 2000);
}

const MAX_REDIRECTS = 10;

/** Waits until a paused stream has data to read, ends, fails or closes. */
async function readable(stream: BinaryStream): Promise<void> {
	const events = ['readable', 'end', 'error', 'close'] as const;
	await new Promise<void>((done) => {
		const once = () => {
			for (const event of events) stream.removeListener(event, once);
			done();
		};
		for (const event of events) stream.once(event, once);
	});
}

/** The first `size` bytes, put back for the store; `whole`: it ended within them (stored instead). */
async function peek(stream: BinaryStream, size: number) {
	const taken: Buffer[] = [];
	for (let length = 0; length < size && !stream.readableEnded;) {
		// a failure comes while `readable` waits (its listener catches it), and stays in `errored`
		if (stream.errored || stream.destroyed) throw stream.errored ?? new Error('closed');
		const chunk = stream.read() as Buffer | null;
		if (chunk === null) await readable(stream);
		else {
			taken.push(chunk);
			length += chunk.length;
		}
	}
	const whole = stream.readableEnded;
	if (!whole) for (let i = taken.length - 1; i >= 0; i--) stream.unshift(taken[i]);
	return { bytes: Buffer.concat(taken), whole };
}

/** Counts the bytes pushed into the stream n8n's store reads: into the watch, and up to `maxBytes`. */
function countPushes(stream: BinaryStream, maxBytes: number, watch: TransferWatch) {
	const state = { received: stream.readableLength, tooLarge: false };
	const stop = (message: string) => !stream.destroyed && stream.destroy(new Error(message));
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
		if (chunk !== null && chunk !== undefined) {
			const length = (chunk as { length: number }).length;
			state.received += length;
			watch.moved(length);
		}
		if (state.received <= maxBytes) return push(chunk, encoding);
		state.tooLarge = true;
		stop(`The file is larger than ${shownSize(maxBytes)}`);
		return false;
	};
	const onStop = () => stop(`The download was stopped: ${watch.stopped ?? 'cancelled'}`);
	if (watch.signal.aborted) onStop();
	else watch.signal.addEventListener('abort', onStop, { once: true });
	const end = () => {
		watch.signal.removeEventListener('abort', onStop);
		watch.end();
	};
	return { state, end };
}

/**
 * Downloads an http(s) address into n8n's binary store: each redirect hop checked and connected to at
 * its checked address (egress.ts); at most `maxBytes`; no byte for Timeout, or under 256 kbit/s after,
 * ends it. Its first 4 KiB (`head`) come before anything is stored; the caller `store`s or `cancel`s.
 */
export async function startDownload(
	ctx: IExecuteFunctions,
	address: URL,
	limits: { allowInternal: boolean; maxBytes: number; timeoutMs: number },
) {
	const stallMs = limits.timeoutMs;
	const watch = watchTransfer({ stallMs, minBytesPerSecond: SLOWEST_LINK_BYTES_PER_SECOND });
	const signal = withCancel(ctx, watch.signal);
	let started = false;
	try {
		for (let url = address, hops = 0; ; hops++) {
			const shownAt = shownUrl(url);
			const where = hops ? `after ${hops} redirect${hops > 1 ? 's' : ''}` : undefined;
			if (url.protocol !== 'https:' && url.protocol !== 'http:')
				throw new EventPicsError('notHttp', { step: 'download', url: shownAt, detail: where });
			const allow = limits.allowInternal;
			const target = await checkedTarget(ctx, url, 'download', allow, shownAt, where);
			const response = (await ctx.helpers.httpRequest
				.call(callerWith(ctx, signal), {
					method: 'GET',
					url: target.url,
					// uncompressed, so that Content-Length is the file's size
					headers: { ...target.headers, 'Accept-Encoding': 'identity' },
					agentOptions: target.agentOptions,
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
					abortSignal: signal,
				})
				.catch((error: unknown) => {
					const failed = networkFacts('download', error, { url: shownAt });
					throw stopped(watch, limits.timeoutMs, shownAt, failed);
				})) as IN8nHttpFullResponse;
			if (response.statusCode >= 200 && response.statusCode <= 299) {
				const download = await received(ctx, url, response, limits, watch);
				started = true;
				return download;
			}
			(response.body as BinaryStream).destroy();
			url = nextHop(url, response, hops, address);
		}
	} finally {
		// a download that came (its first bytes read) ends its watch when stored or let go
		if (!started) watch.end();
	}
}

/** The failure of a download its watch stopped, else `otherwise`. */
function stopped(watch: TransferWatch, timeoutMs: number, url: string, otherwise: EventPicsError) {
	const timeout = `${shownDuration(timeoutMs)} (Timeout)`;
	if (watch.stopped === 'tooSlow') {
		const detail = `its server sent ${shownSize(watch.bytes)} in ${shownDuration(Date.now() - watch.startedAt)}, less than 256 kbit/s, the least the node waits for (at most ${timeout} plus its size at that rate)`;
		return new EventPicsError('tooSlow', { step: 'download', url, detail });
	}
	if (!watch.stopped) return otherwise;
	const when =
		watch.bytes === 0 ? 'its server sent nothing' : `no data came after ${shownSize(watch.bytes)}`;
	const detail = `${when} for ${timeout}: ${url}`;
	return new EventPicsError('stalled', { step: 'download', url, detail });
}

/** Where a non-2xx answer leads: the next hop of a redirect, or the failure it is. */
function nextHop(url: URL, response: IN8nHttpFullResponse, redirects: number, address: URL): URL {
	const { statusCode } = response;
	const location = headerText(response.headers, 'location');
	if (!REDIRECTS.has(statusCode) || !location)
		throw new EventPicsError('status', { step: 'download', url: shownUrl(url), statusCode });
	const fail = (detail: string) =>
		new EventPicsError('redirects', { step: 'download', url: shownUrl(address), detail });
	if (redirects >= MAX_REDIRECTS) throw fail(`redirects more than ${MAX_REDIRECTS} times`);
	if (!URL.canParse(location, url.href))
		throw fail(`redirects to something that is not an address (${shown(location)})`);
	return new URL(location, url);
}

/** The file's size by its Content-Length, unless compressed. */
function fileLength(headers: IN8nHttpFullResponse['headers']): number | undefined {
	const encoded = headerText(headers, 'content-encoding');
	const declared = Number(headerText(headers, 'content-length'));
	const identity = !encoded || encoded === 'identity';
	return Number.isSafeInteger(declared) && declared >= 0 && identity ? declared : undefined;
}

/** The failures of a download that came: larger than Max File Size, or broken off. */
const failures = (url: string, maxBytes: number) => ({
	tooLarge: (reason: string, detail = shownSize(maxBytes)) =>
		new EventPicsError('fileTooLarge', { step: 'download', url, detail, reason }),
	brokeOff: (detail: string, networkCode?: string) =>
		new EventPicsError('brokeOff', { step: 'download', url, detail, networkCode }),
});

/** A 2xx answer: its size checked against the limit, its first bytes read; stored when the caller says. */
async function received(
	ctx: IExecuteFunctions,
	url: URL,
	response: IN8nHttpFullResponse,
	limits: Parameters<typeof startDownload>[2],
	watch: TransferWatch,
) {
	const { headers } = response;
	const stream = response.body as BinaryStream;
	const shownAt = shownUrl(url);
	const { tooLarge, brokeOff } = failures(shownAt, limits.maxBytes);
	const length = fileLength(headers);
	if (length !== undefined && length > limits.maxBytes) {
		stream.destroy(); // its watch ends with startDownload
		throw tooLarge(`announces ${shownSize(length)} (Content-Length)`);
	}
	const counted = countPushes(stream, limits.maxBytes, watch);
	const failed = (error: unknown) => {
		const { received, tooLarge: over } = counted.state;
		if (over) return tooLarge(`sent more; stopped after ${shownSize(received)}`);
		const code = networkFacts('download', error).facts.networkCode;
		const sent = length === undefined ? shownSize(received) : progress(received, length);
		return stopped(watch, limits.timeoutMs, shownAt, brokeOff(`after ${sent}`, code));
	};
	const start = await peek(stream, 4096).catch((error: unknown) => {
		counted.end();
		throw failed(error);
	});
	const contentType = headerText(headers, 'content-type')?.split(';')[0].trim() || undefined;
	const disposition = fileNameFromDisposition(headerText(headers, 'content-disposition'));
	const store = async (fileName: string | undefined) => {
		const binary = await ctx.helpers
			.prepareBinaryData(start.whole ? start.bytes : stream, fileName, contentType)
			.catch((error: unknown) => {
				throw failed(error);
			})
			.finally(counted.end);
		if (counted.state.tooLarge) throw failed(undefined);
		// a watch that fired as the store finished: what was stored may be cut short
		if (watch.stopped) throw stopped(watch, limits.timeoutMs, shownAt, brokeOff('before its end'));
		const size = binary.id
			? (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize
			: Buffer.from(binary.data, 'base64').length;
		if (length !== undefined && size !== length) throw brokeOff(`after ${progress(size, length)}`);
		return { binary, size };
	};
	return {
		head: start.bytes.subarray(0, 4096),
		/** The address after its redirects (whole: for its file name, not to be shown). */
		finalUrl: url,
		contentType,
		fileName: sanitizeFileName(disposition ?? '') || undefined,
		cancel: () => {
			stream.destroy();
			counted.end();
		},
		store,
	};
}
