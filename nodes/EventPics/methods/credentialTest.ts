import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { checkBaseUrl, DEFAULT_BASE_URL } from '../helpers/baseUrl';
import { EventPicsError } from '../helpers/errors';
import { parseEvents } from '../helpers/events';
import { redact } from '../helpers/redact';
import { capText, headerText, shownDuration, shownSize } from '../helpers/text';
import type { AnswerStream } from '../transport/request';
import {
	networkFacts,
	parseBody,
	readAnswer,
	REDIRECTS,
	watchTransfer,
} from '../transport/request';

/** The test ends within `totalMs` whatever the server does; no byte for `stallMs` ends it, and more than `maxBytes`. */
export const PROBE_LIMITS = { totalMs: 20_000, stallMs: 10_000, maxBytes: 4 * 1024 * 1024 };

const KEEP_DEFAULT = `EventPics itself is at ${DEFAULT_BASE_URL}.`;

function words(host: string, error: EventPicsError, apiKey: string): string {
	const { networkCode, detail } = error.facts;
	const byKind: Partial<Record<string, string>> = {
		failed: `The test request to ${host} failed: ${capText(redact(detail ?? '', apiKey), 1000)}`,
		ssrf: `n8n's SSRF protection blocked the Base URL (${host}): ${detail}`,
		tooLarge: `${host} answered with more than ${shownSize(PROBE_LIMITS.maxBytes)}, more than an EventPics events list can be, so the test stopped reading. ${KEEP_DEFAULT}`,
		stalled: `${host} stopped sending its answer for ${shownDuration(PROBE_LIMITS.stallMs)}, so the test stopped waiting. Check the Base URL and test again.`,
		deadline: `${host} did not finish its answer within ${shownDuration(PROBE_LIMITS.totalMs)}, so the test stopped waiting. Check the Base URL and test again.`,
		brokeOff: `${host} broke off its answer. Check the Base URL and test again.`,
	};
	if (byKind[error.kind] !== undefined) return byKind[error.kind] as string;
	const code = networkCode ?? '';
	if (code === 'ECONNREFUSED')
		return `Nothing answers at ${host}: the connection was refused. Check the Base URL. ${KEEP_DEFAULT}`;
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The host name in the Base URL (${host}) was not found. Check it for typos. ${KEEP_DEFAULT}`;
	if (/^(ETIMEDOUT|ECONNABORTED|ERR_SOCKET_CONNECTION_TIMEOUT)$/.test(code))
		return `${host} did not answer within ${shownDuration(PROBE_LIMITS.totalMs)}. Check the Base URL, and that n8n can reach it (a proxy or firewall may stop it).`;
	if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/.test(code))
		return `The HTTPS certificate of ${host} is not trusted, so the key was not sent. Check the Base URL. ${KEEP_DEFAULT}`;
	if (/^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE)$/.test(code))
		return `${host} closed the connection before it answered. Check the Base URL and test again.`;
	if (code === 'ERR_INVALID_URL') return `The Base URL is not a valid address. ${KEEP_DEFAULT}`;
	return `No answer came from ${host}. Check the Base URL and the network of the n8n machine, then test again.`;
}

function statusWords(statusCode: number, location: string | undefined): string | undefined {
	if (REDIRECTS.has(statusCode))
		return `The Base URL (${statusCode}) answered with a redirect${location ? ' to another address' : ''}. The test does not follow redirects, so the API key was not sent there. Check the Base URL. ${KEEP_DEFAULT}`;
	if (statusCode === 401)
		return 'EventPics refused the API key of the credential (401). Copy the key again from the EventPics app (open the event, then the API key management) and paste it without spaces.';
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

/**
 * GET <base>/geteventsandalbums through the one helper a credential test has (the legacy `request`:
 * no abort signal), no redirect followed. Its `timeout` ends a server that sends no headers; after
 * them a watch stops the body on a stall, at the total time, or past `maxBytes`.
 */
async function probe(ctx: ICredentialTestFunctions, baseUrl: string, apiKey: string) {
	const startedAt = Date.now();
	const response = (await ctx.helpers
		.request({
			method: 'GET',
			uri: `${baseUrl}/geteventsandalbums`,
			headers: {
				Authorization: `Bearer ${apiKey}`,
				Accept: 'application/json',
				'Cache-Control': 'no-store',
			},
			followRedirect: false,
			followAllRedirects: false,
			simple: false,
			resolveWithFullResponse: true,
			useStream: true,
			json: false,
			timeout: PROBE_LIMITS.totalMs,
		})
		.catch((error: unknown) => {
			throw networkFacts('geteventsandalbums', error);
		})) as { statusCode: number; headers?: Record<string, unknown>; body: AnswerStream };
	const watch = watchTransfer({
		stallMs: PROBE_LIMITS.stallMs,
		deadlineMs: Math.max(1, PROBE_LIMITS.totalMs - (Date.now() - startedAt)),
	});
	const facts = {
		step: 'geteventsandalbums' as const,
		statusCode: response.statusCode,
		onBytes: watch.moved,
	};
	const read = await readAnswer(response.body, PROBE_LIMITS.maxBytes, watch.signal, facts).then(
		(body) => ({ body }),
		(error: unknown) => ({ error }),
	);
	watch.end();
	if ('body' in read) return { ...response, body: read.body };
	const { error } = read;
	if (!(error instanceof EventPicsError) || error.kind === 'tooLarge') throw error;
	if (error.kind !== 'deadline') throw new EventPicsError('brokeOff', facts); // the body broke off
	throw watch.stopped === 'stalled' ? new EventPicsError('stalled', facts) : error;
}

const failure = (message: string) => ({ status: 'Error' as const, message });

/** The credential's test: the Base URL checked by the node's own rule, then the key's events asked for. */
export async function eventPicsApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const base = checkBaseUrl(data.baseUrl);
	if (!base.ok) return failure(`The Base URL is refused: ${base.reason}`);
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (apiKey === '')
		return failure(
			'Enter the API key: create it in the EventPics app (open the event, then the API key management).',
		);
	const host = new URL(base.url).host;
	const answer = await probe(this, base.url, apiKey).catch((error: Error) => error);
	if (answer instanceof Error)
		return failure(answer instanceof EventPicsError ? words(host, answer, apiKey) : answer.message);
	const refused = statusWords(answer.statusCode, headerText(answer.headers, 'location'));
	if (refused) return failure(refused);
	if (parseEvents(parseBody(answer.body)) !== undefined)
		return { status: 'OK', message: 'Connection successful!' };
	return failure(
		`The Base URL answered ${answer.statusCode}, but not with an EventPics events list. ${KEEP_DEFAULT}`,
	);
}
