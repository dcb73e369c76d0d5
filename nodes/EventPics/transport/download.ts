import type { IBinaryData, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { internalHostReason } from '../helpers/address';
import { fileNameFromDisposition } from '../helpers/disposition';
import { sanitizeFileName } from '../helpers/fileName';
import { shownSize } from '../helpers/size';
import { capText, shown, headerText } from '../helpers/text';
import { REDIRECT_STATUSES, callerWith, withCancel } from './request';
import { egressRefusal } from './egress';
import { findNetworkCode, n8nSsrfBlock, networkErrorText } from './errors';
import type { BinaryStream } from './upload';
import type { TransferWatch } from './watch';
import {
	shownDuration,
	SLOWEST_LINK_BYTES_PER_SECOND,
	watchDownload,
	watchTransfer,
} from './watch';

export interface DownloadLimits {
	/** Allow loopback, private, link-local and other internal addresses (local set-ups only). */
	allowInternal: boolean;
	maxBytes: number;
	/** No byte for this long ends the download. */
	timeoutMs: number;
	/**
	 * Looks at the file's first bytes before anything is stored: the error that refuses it (a page
	 * or text sent as a photo), thrown by the download, or undefined. A refused file never reaches
	 * n8n's binary store.
	 */
	checkHead?: (
		head: Uint8Array,
		file: { fileName?: string; contentType?: string; url: URL },
	) => Error | undefined;
}

/**
 * Why a download did not happen, in the Upload operation's words: `reason` completes "Input item N ...",
 * `description` says what to do, naming the option that changes it where there is one.
 */
export interface DownloadRefusal {
	reason: string;
	description: string;
}

/** Longest address shown in errors and output (a pre-signed address is rarely over 1500). */
const MAX_SHOWN_URL = 2000;

/** An address as shown in errors and output: without a user name or password it may carry, capped. */
export function shownUrl(url: URL): string {
	if (!url.username && !url.password) return capText(url.href, MAX_SHOWN_URL);
	const copy = new URL(url.href);
	copy.username = '';
	copy.password = '';
	return capText(copy.href, MAX_SHOWN_URL);
}

const STOPPED = 'The server of the File URL stopped sending the file';
const AGAIN = 'Run the workflow again; if it persists, check that server.';
const FINAL_ADDRESS = 'Use the final address of the file.';

const after = (redirects: number) =>
	redirects === 0 ? '' : `(after ${redirects} redirect${redirects > 1 ? 's' : ''}) `;

function internalRefusal(host: string, internal: string, redirects: number): DownloadRefusal {
	return {
		reason: `has a File URL ${after(redirects)}that points into an internal network: "${shown(host)}" is ${internal}`,
		description:
			'The URL source refuses internal addresses, so that a workflow or an AI agent cannot fetch files from this machine or its network. Use a public address, or turn on Options > "Allow Internal Addresses" (only for local set-ups you trust).',
	};
}

/** A refusal when an address may not be fetched: not http(s), or internal without the option. */
function checkAddress(url: URL, limits: DownloadLimits, redirects: number) {
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return {
			reason: `has a File URL ${after(redirects)}that is not http(s): "${shownUrl(url)}"`,
			description: 'Set "File URL" to the http(s) address of the file.',
		};
	}
	const internal = limits.allowInternal ? undefined : internalHostReason(url.hostname);
	return internal ? internalRefusal(url.host, internal, redirects) : undefined;
}

/** A GET that got no answer: refused by n8n's SSRF protection, or a network error. */
function failedRequest(url: string, error: unknown): DownloadRefusal {
	const blocked = n8nSsrfBlock(error);
	if (blocked) {
		return {
			reason: `has a File URL that n8n's SSRF protection blocked: "${url}"`,
			description: `${blocked} (n8n's SSRF protection, N8N_SSRF_PROTECTION_ENABLED, is on.)`,
		};
	}
	const networkCode = findNetworkCode(error) ?? 'NETWORK_ERROR';
	// the code stays out of the message: n8n swaps a message naming ECONNREFUSED & co. for a generic one
	return {
		reason: `could not download "${url}": ${networkErrorText(networkCode)}`,
		description: `No answer came back (${networkCode}). Check that the File URL is right and that its server is reachable from the machine n8n runs on.`,
	};
}

function brokeOff(url: string, error: unknown, received: number): DownloadRefusal {
	const networkCode = findNetworkCode(error) ?? 'NETWORK_ERROR';
	return {
		reason: `could not download "${url}": the download broke off after ${shownSize(received)}`,
		description: `${STOPPED} (${networkCode}). ${AGAIN}`,
	};
}

function tooLarge(url: string, maxBytes: number, sent: string): DownloadRefusal {
	return {
		reason: `has a File URL whose file is larger than Max File Size (${shownSize(maxBytes)}): "${url}" ${sent}`,
		description: 'Raise Options > "Max File Size (MB)" if this file is meant to be uploaded.',
	};
}

/** A download its watch ended: no byte for Timeout, or slower than the slowest link on average. */
function stopped(url: string, watch: TransferWatch, limits: DownloadLimits): DownloadRefusal {
	const { bytes } = watch;
	const timeout = shownDuration(limits.timeoutMs);
	if (watch.stopped === 'tooSlow') {
		const elapsed = shownDuration(Date.now() - watch.startedAt);
		return {
			reason: `could not download "${url}": its server sent ${shownSize(bytes)} in ${elapsed}, less than 256 kbit/s, the least the node waits for`,
			description: `The server of the File URL sends too slowly (a file may take at most ${timeout} (Timeout) plus its size at 256 kbit/s). ${AGAIN}`,
		};
	}
	const when = bytes === 0 ? 'its server sent nothing' : `no data came after ${shownSize(bytes)}`;
	return {
		reason: `could not download "${url}": ${when} for ${timeout} (Timeout)`,
		description: `${bytes === 0 ? 'The server of the File URL did not answer' : STOPPED}. ${AGAIN} On a slow network raise Options > "Timeout (Seconds)".`,
	};
}

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
		const announced = `announces ${shownSize(length)} (Content-Length)`;
		return { ok: false, refusal: tooLarge(url, limits.maxBytes, announced) };
	}
	const contentType = headerText(headers, 'content-type')?.split(';')[0].trim() || undefined;
	// cleaned before n8n keeps it with the stored file (a server may send a megabyte of it)
	const fileName = cleanName(fileNameFromDisposition(headerText(headers, 'content-disposition')));
	const watch = watchDownload(stream, limits.maxBytes, transfer);
	const overLimit = () =>
		tooLarge(url, limits.maxBytes, `sent more; stopped after ${shownSize(watch.received)}`);
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
	if (length !== undefined && size !== length) {
		const reason = `could not download "${url}": the download ended after ${shownSize(size)} of ${shownSize(length)}`;
		return { ok: false, refusal: { reason, description: `${STOPPED}. ${AGAIN}` } };
	}
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
		if (internal) return { ok: false, refusal: internalRefusal(url.host, internal, redirects) };
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
			const reason = `could not download "${shownUrl(url)}": its server answered ${response.statusCode}`;
			const description =
				'Check that the File URL is right and that the file is reachable without logging in.';
			return { ok: false, refusal: { reason, description } };
		}
		(response.body as BinaryStream).destroy();
		if (redirects >= MAX_REDIRECTS) {
			const reason = `has a File URL that redirects more than ${MAX_REDIRECTS} times: "${shownUrl(address)}"`;
			return { ok: false, refusal: { reason, description: FINAL_ADDRESS } };
		}
		try {
			url = new URL(location, url);
		} catch {
			const reason = `has a File URL that redirects to something that is not an address (${shown(location)}): "${shownUrl(address)}"`;
			return { ok: false, refusal: { reason, description: FINAL_ADDRESS } };
		}
	}
}
