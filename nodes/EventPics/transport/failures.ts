import type { IDataObject } from 'n8n-workflow';

import { shownSize } from '../helpers/size';
import { headerValue } from './answer';
import { networkWords } from './networkWords';
import type { CallLimit } from './retryPolicy';
import type { Failure, HttpAnswer, Step } from './types';

/** Longest answer text searched for an S3-style XML error (such a document is a few hundred bytes). */
const MAX_XML_TEXT = 64 * 1024;

const STEP_LABEL: Record<Step, string> = {
	geteventsandalbums: 'Listing the events (GET /geteventsandalbums)',
	getuploadurl: 'Asking for an upload address (POST /getuploadurl)',
	put: 'Uploading the file to the upload address (PUT)',
	download: 'Downloading the file from its URL',
};

export function stepLabel(step: Step): string {
	return STEP_LABEL[step];
}

/** The first of an error and its causes (five deep at most) of which `pick` tells something. */
function fromCauses<T>(error: unknown, pick: (error: IDataObject) => T | undefined): T | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const found = pick(current as IDataObject);
		if (found !== undefined) return found;
		current = (current as IDataObject).cause;
	}
	return undefined;
}

/** The Node.js or axios error code of an error (or of its causes), such as ECONNREFUSED. */
export function findNetworkCode(error: unknown): string | undefined {
	return fromCauses(error, ({ code }) =>
		typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'ERR_BAD_RESPONSE'
			? code
			: undefined,
	);
}

/** n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the address: its explanation. */
export function n8nSsrfBlock(error: unknown): string | undefined {
	return fromCauses(error, ({ name, description }) => {
		if (name !== 'SsrfBlockedIpError' && name !== 'SsrfBlockedHostnameError') return undefined;
		return typeof description === 'string' ? description : 'The address is restricted.';
	});
}

/**
 * A request that got no HTTP answer. Only the error code is kept: raw errors carry the request.
 * n8n's SSRF protection refusing the address is named as such.
 */
export function networkFailure(step: Step, error: unknown): Failure {
	const blocked = n8nSsrfBlock(error);
	if (blocked) {
		return {
			step,
			networkCode: 'SSRF_BLOCKED',
			summary: `${stepLabel(step)} was blocked by n8n's SSRF protection: ${blocked}`,
		};
	}
	const networkCode = findNetworkCode(error) ?? 'NETWORK_ERROR';
	return {
		step,
		networkCode,
		summary: `${stepLabel(step)} got no answer: ${networkWords(networkCode)}.`,
	};
}

/** A call that did not finish within its deadline (a server too slow, or one that drips its answer). */
export function deadlineFailure(step: Step, limit: CallLimit): Failure {
	const name = limit.timeoutName ? ` (${limit.timeoutName})` : '';
	return {
		step,
		networkCode: 'DEADLINE_EXCEEDED',
		summary: `${stepLabel(step)} did not finish within ${Math.round(limit.timeoutMs / 1000)} s${name}, so the node stopped waiting.`,
	};
}

/** The origin of a Location header (relative ones against the request's address); never its path or query. */
function originOf(location: unknown, requestUrl: string): string | undefined {
	const text = headerValue(location);
	if (text === undefined || text.trim() === '') return undefined;
	try {
		const url = new URL(text.trim(), requestUrl);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
	} catch {
		return undefined;
	}
}

/** A 3xx answer of a call that carries the key: never followed, so the key stays with the Base URL. */
export function redirectFailure(
	step: Step,
	statusCode: number,
	location: unknown,
	requestUrl: string,
): Failure {
	const origin = originOf(location, requestUrl);
	const where = origin ? `a redirect to ${origin}` : 'a redirect';
	return {
		step,
		statusCode,
		redirectTo: origin ?? null,
		summary: `${stepLabel(step)} answered ${statusCode}, ${where}. The node does not follow redirects of calls that carry the API key, so the key was not sent there.`,
	};
}

/** An answer larger than the node reads from that call. */
export function tooLargeFailure(step: Step, statusCode: number, maxBytes: number): Failure {
	return {
		step,
		statusCode,
		tooLarge: true,
		summary: `${stepLabel(step)} answered ${statusCode} with more than ${shownSize(maxBytes)}, more than such an answer can be; the node stopped reading it.`,
	};
}

function readServiceError(body: unknown): { code?: string; message?: string; details?: unknown } {
	if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) {
		const object = body as IDataObject;
		return {
			code: typeof object.code === 'string' ? object.code : undefined,
			message: typeof object.message === 'string' ? object.message : undefined,
			details: object.details,
		};
	}
	const whole = Buffer.isBuffer(body)
		? body.toString('utf8')
		: typeof body === 'string'
			? body
			: '';
	const text = whole.slice(0, MAX_XML_TEXT);
	// Object storage answers with S3-style XML: <Error><Code>..</Code><Message>..</Message></Error>
	const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
	const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
	// Any other text (plain, HTML, JSON from the storage side) is not shown: an upload address may
	// point somewhere else than a storage, and what answers there is nobody's business in an error.
	return { code, message };
}

/**
 * An HTTP answer whose status is not a success. What the service said is kept as it came: it may
 * hold the key, so it is cut and redacted where it is shown (transport/errors.ts), never here.
 */
export function httpFailure(step: Step, answer: HttpAnswer, retryAfterMs?: number): Failure {
	const service = readServiceError(answer.body);
	return {
		step,
		statusCode: answer.statusCode,
		serviceCode: service.code,
		serviceMessage: service.message,
		details: service.details,
		retryAfterMs,
		summary: `${stepLabel(step)} answered ${answer.statusCode}`,
	};
}

/** A success status with an answer that does not have the documented shape. */
export function malformedFailure(step: Step, answer: HttpAnswer, expected: string): Failure {
	return {
		step,
		statusCode: answer.statusCode,
		summary: `${stepLabel(step)} answered ${answer.statusCode} without ${expected}.`,
	};
}
