import { internalHostReason } from '../helpers/address';
import { capText } from '../helpers/text';
import { n8nSsrfBlock, networkFailure } from './failures';
import type { TransferWatch } from './transferWatch';

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
 * Why a download did not happen, as data: the Upload operation words it for the user
 * (actions/photo/downloadWords.ts), with its options' names. `url` is the address as shown.
 */
export type DownloadRefusal =
	| { kind: 'notHttp'; url: string; redirects: number }
	| { kind: 'internal'; host: string; internal: string; redirects: number }
	| { kind: 'ssrf'; url: string; blocked: string }
	| { kind: 'noAnswer'; url: string; networkCode: string }
	| { kind: 'badStatus'; url: string; statusCode: number }
	| { kind: 'tooManyRedirects'; url: string; max: number }
	| { kind: 'badLocation'; url: string; location: string }
	| { kind: 'tooLarge'; url: string; maxBytes: number; announced?: number; received?: number }
	| { kind: 'brokeOff'; url: string; networkCode: string; received: number }
	| { kind: 'cutShort'; url: string; size: number; length: number }
	| { kind: 'tooSlow'; url: string; bytes: number; elapsedMs: number; timeoutMs: number }
	| { kind: 'stalled'; url: string; bytes: number; timeoutMs: number };

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

/** A refusal when an address may not be fetched: not http(s), or internal without the option. */
export function checkAddress(
	url: URL,
	limits: DownloadLimits,
	redirects: number,
): DownloadRefusal | undefined {
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return { kind: 'notHttp', url: shownUrl(url), redirects };
	const internal = limits.allowInternal ? undefined : internalHostReason(url.hostname);
	if (!internal) return undefined;
	return { kind: 'internal', host: url.host, internal, redirects };
}

/** A GET that got no answer: refused by n8n's SSRF protection, or a network error. */
export function failedRequest(url: string, error: unknown): DownloadRefusal {
	const blocked = n8nSsrfBlock(error);
	if (blocked) return { kind: 'ssrf', url, blocked };
	return { kind: 'noAnswer', url, networkCode: networkFailure('download', error).networkCode! };
}

export function brokeOff(url: string, error: unknown, received: number): DownloadRefusal {
	const { networkCode } = networkFailure('download', error);
	return { kind: 'brokeOff', url, networkCode: networkCode!, received };
}

/** A download its watch ended: no byte for Timeout, or slower than the slowest link on average. */
export function stopped(
	url: string,
	watch: TransferWatch,
	limits: DownloadLimits,
): DownloadRefusal {
	const { bytes } = watch;
	if (watch.stopped === 'tooSlow') {
		const elapsedMs = Date.now() - watch.startedAt;
		return { kind: 'tooSlow', url, bytes, elapsedMs, timeoutMs: limits.timeoutMs };
	}
	return { kind: 'stalled', url, bytes, timeoutMs: limits.timeoutMs };
}
