import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { fileNameFromDisposition } from '../helpers/disposition';
import { sanitizeFileName } from '../helpers/fileName';
import type { DownloadLimits, DownloadRefusal } from './downloadRefusals';
import { brokeOff, checkAddress, failedRequest, shownUrl, stopped } from './downloadRefusals';
import { watchDownload } from './downloadWatch';
import { headerText, REDIRECT_STATUSES } from './answer';
import { egressRefusal } from './egress';
import { callerWith, withCancel } from './signals';
import type { TransferWatch } from './transferWatch';
import { SLOWEST_LINK_BYTES_PER_SECOND, watchTransfer } from './transferWatch';
import type { BinaryStream } from './upload';

export type { DownloadLimits, DownloadRefusal } from './downloadRefusals';

/** Redirects followed at most, each one checked like the first address. */
const MAX_REDIRECTS = 10;

/** A file downloaded once into n8n's binary store. */
interface StoredDownload {
	/** The address the file came from, after redirects (whole: for its file name, not to be shown). */
	finalUrl: string;
	binary: IBinaryData;
	size: number;
	contentType?: string;
	/** File name from Content-Disposition, when the server gave one. */
	fileName?: string;
}

type DownloadResult = { ok: true; value: StoredDownload } | { ok: false; refusal: DownloadRefusal };

function cleanName(raw: string | undefined): string | undefined {
	return raw === undefined ? undefined : sanitizeFileName(raw) || undefined;
}

/**
 * One GET, redirects not followed (each hop is checked by the caller). Ended by the download's
 * watch, not by n8n's `timeout` (that one runs until the headers only).
 */
async function getOnce(
	ctx: IExecuteFunctions,
	url: string,
	signal: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	return (await ctx.helpers.httpRequest.call(callerWith(ctx, signal), {
		method: 'GET',
		url,
		// an uncompressed answer, so that Content-Length is the size of the file
		headers: { 'Accept-Encoding': 'identity' },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		abortSignal: signal,
	})) as IN8nHttpFullResponse;
}

/** Bytes of a download's start that its owner looks at before anything is stored. */
const HEAD_BYTES = 4096;

/** Waits until a paused stream has data to read, ends, fails or closes. */
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

/**
 * The first `size` bytes of a download, read in paused mode and put back in front of the stream, so
 * that the store then reads the file from its start. `whole` when the file ended within them (a
 * stream cannot take bytes back after its end: the caller stores these bytes instead).
 */
async function peekHead(stream: BinaryStream, size: number) {
	const taken: Buffer[] = [];
	let length = 0;
	let failed: unknown;
	const onError = (error: unknown) => void (failed ??= error);
	stream.on('error', onError);
	try {
		while (length < size && failed === undefined && !stream.readableEnded && !stream.destroyed) {
			const chunk = stream.read() as Buffer | null;
			if (chunk === null) await readable(stream);
			else {
				taken.push(chunk);
				length += chunk.length;
			}
		}
	} finally {
		stream.removeListener('error', onError);
	}
	const bytes = Buffer.concat(taken);
	if (failed !== undefined) throw failed;
	const whole = stream.readableEnded;
	if (!whole) for (let i = taken.length - 1; i >= 0; i--) stream.unshift(taken[i]);
	return { head: bytes.subarray(0, size), bytes, whole };
}

/**
 * The file's first bytes go to the owner's check; a file it refuses is not stored (its error comes
 * back), any other is stored in n8n's binary store from its first byte.
 */
async function lookThenStore(
	ctx: IExecuteFunctions,
	stream: BinaryStream,
	limits: DownloadLimits,
	file: { fileName?: string; contentType?: string; url: URL },
): Promise<IBinaryData | Error> {
	const start = await peekHead(stream, HEAD_BYTES);
	// an empty file is refused as such once stored (it is nothing to keep)
	const refused = start.bytes.length > 0 ? limits.checkHead?.(start.head, file) : undefined;
	if (refused) {
		stream.destroy();
		return refused;
	}
	const body = start.whole ? start.bytes : stream;
	return await ctx.helpers.prepareBinaryData(body, file.fileName, file.contentType);
}

/** Stores a 2xx answer's body, within the size limit, while the transfer's watch keeps time. */
async function store(
	ctx: IExecuteFunctions,
	address: URL,
	response: IN8nHttpFullResponse,
	limits: DownloadLimits,
	transfer: TransferWatch,
): Promise<DownloadResult> {
	const url = shownUrl(address);
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const stream = response.body as BinaryStream;
	const encoded = headerText(headers, 'content-encoding');
	const declared = Number(headerText(headers, 'content-length'));
	// a compressed answer's Content-Length is not the size of the file it unpacks to
	const length =
		Number.isSafeInteger(declared) && declared >= 0 && (!encoded || encoded === 'identity')
			? declared
			: undefined;
	if (length !== undefined && length > limits.maxBytes) {
		stream.destroy();
		return {
			ok: false,
			refusal: { kind: 'tooLarge', url, maxBytes: limits.maxBytes, announced: length },
		};
	}
	const contentType = headerText(headers, 'content-type')?.split(';')[0].trim() || undefined;
	// cleaned before n8n keeps it with the stored file (a server may send a megabyte of it)
	const fileName = cleanName(fileNameFromDisposition(headerText(headers, 'content-disposition')));
	const watch = watchDownload(stream, limits.maxBytes, transfer);
	const overLimit = (): DownloadRefusal => ({
		kind: 'tooLarge',
		url,
		maxBytes: limits.maxBytes,
		received: watch.received,
	});
	const file = { fileName, contentType, url: address };
	let binary: IBinaryData | Error;
	try {
		binary = await lookThenStore(ctx, stream, limits, file);
	} catch (error) {
		if (watch.tooLarge) return { ok: false, refusal: overLimit() };
		if (transfer.stopped) return { ok: false, refusal: stopped(url, transfer, limits) };
		return { ok: false, refusal: brokeOff(url, error, watch.received) };
	} finally {
		watch.end();
	}
	// the check of its first bytes refused the file, which was never stored
	if (binary instanceof Error) throw binary;
	if (watch.tooLarge) return { ok: false, refusal: overLimit() };
	// a watch that fired as the store finished: what was stored may be cut short
	if (transfer.stopped) return { ok: false, refusal: stopped(url, transfer, limits) };
	const size = binary.id
		? (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize
		: Buffer.from(binary.data, 'base64').length;
	if (length !== undefined && size !== length)
		return { ok: false, refusal: { kind: 'cutShort', url, size, length } };
	return { ok: true, value: { finalUrl: address.href, binary, size, contentType, fileName } };
}

/**
 * Downloads an http(s) address once into n8n's binary store. Follows redirects itself, so that every
 * hop is checked (internal addresses refused unless allowed, at most MAX_REDIRECTS), and never stores
 * more than `limits.maxBytes`: refused by Content-Length before reading, stopped while reading. It
 * always ends: no byte for Timeout (the headers included), or less than 256 kbit/s on average once
 * Timeout has passed, ends it (at most Timeout + size at that rate).
 */
export async function downloadToStore(
	ctx: IExecuteFunctions,
	address: URL,
	limits: DownloadLimits,
): Promise<DownloadResult> {
	const transfer = watchTransfer({
		stallMs: limits.timeoutMs,
		minBytesPerSecond: SLOWEST_LINK_BYTES_PER_SECOND,
	});
	try {
		return await followAndStore(ctx, address, limits, transfer);
	} finally {
		transfer.end();
	}
}

async function followAndStore(
	ctx: IExecuteFunctions,
	address: URL,
	limits: DownloadLimits,
	transfer: TransferWatch,
): Promise<DownloadResult> {
	const signal = withCancel(ctx, transfer.signal);
	let url = address;
	for (let redirects = 0; ; redirects++) {
		const refused = checkAddress(url, limits, redirects);
		if (refused) return { ok: false, refusal: refused };
		const internal = limits.allowInternal ? undefined : await egressRefusal(ctx, url);
		if (internal)
			return { ok: false, refusal: { kind: 'internal', host: url.host, internal, redirects } };
		let response: IN8nHttpFullResponse;
		try {
			response = await getOnce(ctx, url.href, signal);
		} catch (error) {
			if (transfer.stopped) return { ok: false, refusal: stopped(shownUrl(url), transfer, limits) };
			return { ok: false, refusal: failedRequest(shownUrl(url), error) };
		}
		const location = headerText(
			response.headers as Record<string, unknown> | undefined,
			'location',
		);
		if (!REDIRECT_STATUSES.has(response.statusCode) || !location) {
			if (response.statusCode >= 200 && response.statusCode <= 299)
				return await store(ctx, url, response, limits, transfer);
			(response.body as BinaryStream).destroy();
			const statusCode = response.statusCode;
			return { ok: false, refusal: { kind: 'badStatus', url: shownUrl(url), statusCode } };
		}
		(response.body as BinaryStream).destroy();
		if (redirects >= MAX_REDIRECTS) {
			return {
				ok: false,
				refusal: { kind: 'tooManyRedirects', url: shownUrl(address), max: MAX_REDIRECTS },
			};
		}
		try {
			url = new URL(location, url);
		} catch {
			return {
				ok: false,
				refusal: { kind: 'badLocation', url: shownUrl(address), location },
			};
		}
	}
}
