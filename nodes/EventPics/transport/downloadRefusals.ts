import { internalHostReason } from '../helpers/address';
import { shownSize } from '../helpers/size';
import { networkFailure } from './failures';
import type { TransferWatch } from './transferWatch';
import { shownDuration } from './transferWatch';

export interface DownloadLimits {
	/** Allow loopback, private, link-local and other internal addresses (local set-ups only). */
	allowInternal: boolean;
	maxBytes: number;
	/** No byte for this long ends the download (Options > Timeout). */
	timeoutMs: number;
}

/** Why a download did not happen: `reason` completes "Item N ...", `description` says what to do. */
export interface DownloadRefusal {
	reason: string;
	description: string;
}

const STOPPED = 'The server of the File URL stopped sending the file';
const AGAIN = 'Run the workflow again; if it persists, check that server.';

/** An address as shown in errors and output: without a user name or password it may carry. */
export function shownUrl(url: URL): string {
	if (!url.username && !url.password) return url.href;
	const copy = new URL(url.href);
	copy.username = '';
	copy.password = '';
	return copy.href;
}

/** n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the address: its explanation. */
export function n8nSsrfBlock(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const { name, description } = current as { name?: unknown; description?: unknown };
		if (name === 'SsrfBlockedIpError' || name === 'SsrfBlockedHostnameError') {
			return typeof description === 'string' ? description : 'The address is restricted.';
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** A refusal when an address may not be fetched: not http(s), or internal without the option. */
export function checkAddress(
	url: URL,
	limits: DownloadLimits,
	redirects: number,
): DownloadRefusal | undefined {
	const hop = redirects === 0 ? '' : `(after ${redirects} redirect${redirects > 1 ? 's' : ''}) `;
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return {
			reason: `has a File URL ${hop}that is not http(s): "${shownUrl(url)}"`,
			description: 'Set "File URL" to the http(s) address of the file.',
		};
	}
	const internal = limits.allowInternal ? undefined : internalHostReason(url.hostname);
	if (!internal) return undefined;
	return {
		reason: `has a File URL ${hop}that points into an internal network: "${url.host}" is ${internal}`,
		description:
			'The URL source refuses internal addresses, so that a workflow or an AI agent cannot fetch files from this machine or its network. Use a public address, or turn on Options > "Allow Internal Addresses" (only for local set-ups you trust).',
	};
}

/** A GET that got no answer: refused by n8n's SSRF protection, or a network error. */
export function failedRequest(url: string, error: unknown): DownloadRefusal {
	const blocked = n8nSsrfBlock(error);
	if (blocked) {
		return {
			reason: `has a File URL that n8n's SSRF protection blocked: "${url}"`,
			description: `${blocked} (n8n's SSRF protection, N8N_SSRF_PROTECTION_ENABLED, is on.)`,
		};
	}
	const { networkCode } = networkFailure('download', error);
	// the code stays out of the message: n8n swaps a message naming ECONNREFUSED & co. for a generic one
	return {
		reason: `could not download "${url}": its server did not answer`,
		description: `No answer came back (${networkCode}). Check that the File URL is right and that its server is reachable from the machine n8n runs on.`,
	};
}

export function badStatus(url: string, statusCode: number): DownloadRefusal {
	return {
		reason: `could not download "${url}": its server answered ${statusCode}`,
		description:
			'Check that the File URL is right and that the file is reachable without logging in.',
	};
}

export function badRedirect(address: string, what: string): DownloadRefusal {
	return {
		reason: `has a File URL that ${what}: "${address}"`,
		description: 'Use the final address of the file.',
	};
}

export function tooLarge(url: string, maxBytes: number, sent: string): DownloadRefusal {
	return {
		reason: `has a File URL whose file is larger than Max File Size (${shownSize(maxBytes)}): "${url}" ${sent}`,
		description: 'Raise Options > "Max File Size (MB)" if this file is meant to be uploaded.',
	};
}

export function brokeOff(url: string, error: unknown, received: number): DownloadRefusal {
	const { networkCode } = networkFailure('download', error);
	return {
		reason: `could not download "${url}": the download broke off after ${shownSize(received)}`,
		description: `${STOPPED} (${networkCode}). ${AGAIN}`,
	};
}

export function cutShort(url: string, size: number, length: number): DownloadRefusal {
	return {
		reason: `could not download "${url}": the download ended after ${shownSize(size)} of ${shownSize(length)}`,
		description: `${STOPPED}. ${AGAIN}`,
	};
}

/** A download its watch ended: no byte for Timeout, or slower than the slowest link on average. */
export function stopped(
	url: string,
	watch: TransferWatch,
	limits: DownloadLimits,
): DownloadRefusal {
	const timeout = `${shownDuration(limits.timeoutMs)} (Timeout)`;
	if (watch.stopped === 'tooSlow') {
		return {
			reason: `could not download "${url}": its server sent ${shownSize(watch.bytes)} in ${shownDuration(Date.now() - watch.startedAt)}, less than 256 kbit/s, the least the node waits for`,
			description: `The server of the File URL sends too slowly (a file may take at most ${timeout} plus its size at 256 kbit/s). ${AGAIN}`,
		};
	}
	const when =
		watch.bytes === 0 ? 'its server sent nothing' : `no data came after ${shownSize(watch.bytes)}`;
	return {
		reason: `could not download "${url}": ${when} for ${timeout}`,
		description: `${watch.bytes === 0 ? 'The server of the File URL did not answer' : STOPPED}. ${AGAIN} On a slow network raise Options > "Timeout (Seconds)".`,
	};
}
