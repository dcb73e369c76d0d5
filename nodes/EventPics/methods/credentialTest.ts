import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { checkBaseUrl, DEFAULT_BASE_URL } from '../helpers/baseUrl';
import { parseEventsResponse } from '../helpers/events';
import { headerText } from '../helpers/text';
import { parseBody, REDIRECT_STATUSES } from '../transport/request';
import type { ProbeResult } from '../transport/credentialProbe';
import { PROBE_LIMITS, probeEvents } from '../transport/credentialProbe';
import { networkKind } from '../transport/errors';
import { shownDuration } from '../transport/watch';
import { shownSize } from '../helpers/size';

const KEEP_DEFAULT = `EventPics itself is at ${DEFAULT_BASE_URL}.`;

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** What an address that got no answer means, in words, with what to do. */
function noAnswer(host: string, probe: Extract<ProbeResult, { reason: 'noAnswer' }>): string {
	if (probe.ssrf) return `n8n's SSRF protection blocked the Base URL (${host}): ${probe.ssrf}`;
	switch (networkKind(probe.code)) {
		case 'refused':
			return `Nothing answers at ${host}: the connection was refused. Check the Base URL. ${KEEP_DEFAULT}`;
		case 'notFound':
			return `The host name in the Base URL (${host}) was not found. Check it for typos. ${KEEP_DEFAULT}`;
		case 'timedOut':
			return `${host} did not answer within ${shownDuration(PROBE_LIMITS.totalMs)}. Check the Base URL, and that n8n can reach it (a proxy or firewall may stop it).`;
		case 'certificate':
			return `The HTTPS certificate of ${host} is not trusted, so the key was not sent. Check the Base URL. ${KEEP_DEFAULT}`;
		case 'closed':
			return `${host} closed the connection before it answered. Check the Base URL and test again.`;
		case 'invalidUrl':
			return `The Base URL is not a valid address. ${KEEP_DEFAULT}`;
		default:
			return `No answer came from ${host}. Check the Base URL and the network of the n8n machine, then test again.`;
	}
}

/** What a status means for this credential, in words, with what to do. */
function statusMessage(statusCode: number, location: string | undefined): string | undefined {
	if (REDIRECT_STATUSES.has(statusCode)) {
		const to = location ? ' to another address' : '';
		return `The Base URL (${statusCode}) answered with a redirect${to}. The test does not follow redirects, so the API key was not sent there. Check the Base URL. ${KEEP_DEFAULT}`;
	}
	if (statusCode === 401)
		return 'EventPics refused the API key (401). Copy the key again from the EventPics app (open the event, then the API key management) and paste it without spaces.';
	if (statusCode === 404)
		return `No EventPics API answered at this Base URL (404). ${KEEP_DEFAULT}`;
	if (statusCode === 429)
		return 'EventPics is rate limiting this key (429). Wait a minute and save again to test it.';
	if (statusCode >= 500)
		return `EventPics answered with a server error (${statusCode}). Save again in a few minutes to test it.`;
	if (statusCode < 200 || statusCode > 299)
		return `The Base URL answered ${statusCode}, not like the EventPics API. ${KEEP_DEFAULT}`;
	return undefined;
}

/** A probe that did not end with a whole answer: which limit, in words. */
function cutShort(
	host: string,
	probe: Exclude<ProbeResult, { ok: true } | { reason: 'noAnswer' }>,
) {
	if (probe.reason === 'tooLarge')
		return `${host} answered with more than ${shownSize(PROBE_LIMITS.maxBytes)}, more than an EventPics events list can be, so the test stopped reading. ${KEEP_DEFAULT}`;
	if (probe.reason === 'stalled')
		return `${host} stopped sending its answer for ${shownDuration(PROBE_LIMITS.stallMs)}, so the test stopped waiting. Check the Base URL and test again.`;
	if (probe.reason === 'tooSlow')
		return `${host} did not finish its answer within ${shownDuration(PROBE_LIMITS.totalMs)}, so the test stopped waiting. Check the Base URL and test again.`;
	return `${host} broke off its answer. Check the Base URL and test again.`;
}

/**
 * The EventPics credential's test (n8n runs it when the credential is saved): the Base URL checked
 * by the node's own rule (helpers/baseUrl.ts) before anything is sent, then GET /geteventsandalbums
 * with the key, never following a redirect, ended within PROBE_LIMITS whatever the server does.
 * Every answer in words, with the fix.
 */
export async function eventPicsApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const base = checkBaseUrl(data.baseUrl);
	if (!base.ok) return error(`The Base URL is refused: ${base.reason}`);
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (apiKey === '')
		return error(
			'Enter the API key: create it in the EventPics app (open the event, then the API key management).',
		);
	const host = new URL(base.url).host;
	const probe = await probeEvents(this, base.url, apiKey);
	if (!probe.ok)
		return error(probe.reason === 'noAnswer' ? noAnswer(host, probe) : cutShort(host, probe));
	const refused = statusMessage(probe.statusCode, headerText(probe.headers, 'location'));
	if (refused) return error(refused);
	if (parseEventsResponse(parseBody(probe.body)) === undefined)
		return error(
			`The Base URL answered ${probe.statusCode}, but not with an EventPics events list. ${KEEP_DEFAULT}`,
		);
	return { status: 'OK', message: 'Connection successful!' };
}
