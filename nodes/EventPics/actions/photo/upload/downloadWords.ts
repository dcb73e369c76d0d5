import { networkWords } from '../../../transport/networkWords';
import { shownSize } from '../../../helpers/size';
import { shown } from '../../../helpers/text';
import type { DownloadRefusal } from '../../../transport/download';
import { shownDuration } from '../../../transport/transferWatch';

/** A refused download in the Upload operation's words: `reason` completes "Item N ...", `description` says what to do. */
export interface RefusalWords {
	reason: string;
	description: string;
}

const STOPPED = 'The server of the File URL stopped sending the file';
const AGAIN = 'Run the workflow again; if it persists, check that server.';

const after = (redirects: number) =>
	redirects === 0 ? '' : `(after ${redirects} redirect${redirects > 1 ? 's' : ''}) `;

/** Refusals of the address itself and of the answer's status, before any byte of the file. */
function addressWords(refusal: DownloadRefusal): RefusalWords | undefined {
	switch (refusal.kind) {
		case 'notHttp':
			return {
				reason: `has a File URL ${after(refusal.redirects)}that is not http(s): "${refusal.url}"`,
				description: 'Set "File URL" to the http(s) address of the file.',
			};
		case 'internal':
			return {
				reason: `has a File URL ${after(refusal.redirects)}that points into an internal network: "${shown(refusal.host)}" is ${refusal.internal}`,
				description:
					'The URL source refuses internal addresses, so that a workflow or an AI agent cannot fetch files from this machine or its network. Use a public address, or turn on Options > "Allow Internal Addresses" (only for local set-ups you trust).',
			};
		case 'ssrf':
			return {
				reason: `has a File URL that n8n's SSRF protection blocked: "${refusal.url}"`,
				description: `${refusal.blocked} (n8n's SSRF protection, N8N_SSRF_PROTECTION_ENABLED, is on.)`,
			};
		case 'noAnswer':
			// the code stays out of the message: n8n swaps a message naming ECONNREFUSED & co. for a generic one
			return {
				reason: `could not download "${refusal.url}": ${networkWords(refusal.networkCode)}`,
				description: `No answer came back (${refusal.networkCode}). Check that the File URL is right and that its server is reachable from the machine n8n runs on.`,
			};
		case 'badStatus':
			return {
				reason: `could not download "${refusal.url}": its server answered ${refusal.statusCode}`,
				description:
					'Check that the File URL is right and that the file is reachable without logging in.',
			};
		case 'tooManyRedirects':
			return {
				reason: `has a File URL that redirects more than ${refusal.max} times: "${refusal.url}"`,
				description: 'Use the final address of the file.',
			};
		case 'badLocation':
			return {
				reason: `has a File URL that redirects to something that is not an address (${shown(refusal.location)}): "${refusal.url}"`,
				description: 'Use the final address of the file.',
			};
		default:
			return undefined;
	}
}

/** Refusals while the file was on its way: too large, broken off, cut short, too slow, stalled. */
function transferWords(refusal: DownloadRefusal): RefusalWords {
	switch (refusal.kind) {
		case 'tooLarge': {
			const sent =
				refusal.announced === undefined
					? `sent more; stopped after ${shownSize(refusal.received ?? 0)}`
					: `announces ${shownSize(refusal.announced)} (Content-Length)`;
			return {
				reason: `has a File URL whose file is larger than Max File Size (${shownSize(refusal.maxBytes)}): "${refusal.url}" ${sent}`,
				description: 'Raise Options > "Max File Size (MB)" if this file is meant to be uploaded.',
			};
		}
		case 'brokeOff':
			return {
				reason: `could not download "${refusal.url}": the download broke off after ${shownSize(refusal.received)}`,
				description: `${STOPPED} (${refusal.networkCode}). ${AGAIN}`,
			};
		case 'cutShort':
			return {
				reason: `could not download "${refusal.url}": the download ended after ${shownSize(refusal.size)} of ${shownSize(refusal.length)}`,
				description: `${STOPPED}. ${AGAIN}`,
			};
		case 'tooSlow':
			return {
				reason: `could not download "${refusal.url}": its server sent ${shownSize(refusal.bytes)} in ${shownDuration(refusal.elapsedMs)}, less than 256 kbit/s, the least the node waits for`,
				description: `The server of the File URL sends too slowly (a file may take at most ${shownDuration(refusal.timeoutMs)} (Timeout) plus its size at 256 kbit/s). ${AGAIN}`,
			};
		default:
			return stalledWords(refusal as Extract<DownloadRefusal, { kind: 'stalled' }>);
	}
}

function stalledWords(refusal: Extract<DownloadRefusal, { kind: 'stalled' }>): RefusalWords {
	const when =
		refusal.bytes === 0
			? 'its server sent nothing'
			: `no data came after ${shownSize(refusal.bytes)}`;
	return {
		reason: `could not download "${refusal.url}": ${when} for ${shownDuration(refusal.timeoutMs)} (Timeout)`,
		description: `${refusal.bytes === 0 ? 'The server of the File URL did not answer' : STOPPED}. ${AGAIN} On a slow network raise Options > "Timeout (Seconds)".`,
	};
}

/** A refused download in words, naming the option that changes it where there is one. */
export function refusalWords(refusal: DownloadRefusal): RefusalWords {
	return addressWords(refusal) ?? transferWords(refusal);
}
