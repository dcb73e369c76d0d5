import type { IDataObject } from 'n8n-workflow';

import { formatBytes } from './answer';
import type { Failure, HttpAnswer, Step } from './types';

/** Longest text of the service taken into a message (the whole error stays a few KB). */
const MAX_SERVICE_TEXT = 1000;

/** `text` cut to `max` characters, with a note of how much was left out. */
export function capText(text: string, max: number): string {
	if (text.length <= max) return text;
	return `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}

const STEP_LABEL: Record<Step, string> = {
	geteventsandalbums: 'Listing the events (GET /geteventsandalbums)',
	getuploadurl: 'Asking for an upload address (POST /getuploadurl)',
	put: 'Uploading the file to the upload address (PUT)',
	download: 'Downloading the file from its URL',
};

export function stepLabel(step: Step): string {
	return STEP_LABEL[step];
}

/** The Node.js or axios error code of an error (or of its causes), such as ECONNREFUSED. */
export function findNetworkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as IDataObject).code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'ERR_BAD_RESPONSE')
			return code;
		current = (current as IDataObject).cause;
	}
	return undefined;
}

/** A request that got no HTTP answer. Only the error code is kept: raw errors carry the request. */
export function networkFailure(step: Step, error: unknown): Failure {
	const networkCode = findNetworkCode(error) ?? 'NETWORK_ERROR';
	return {
		step,
		networkCode,
		summary: `${stepLabel(step)} failed without an answer from the server (${networkCode}).`,
	};
}

/** A call that did not finish within its deadline (a server too slow, or one that drips its answer). */
export function deadlineFailure(step: Step, timeoutMs: number): Failure {
	return {
		step,
		networkCode: 'DEADLINE_EXCEEDED',
		summary: `${stepLabel(step)} did not finish within ${Math.round(timeoutMs / 1000)} s (Timeout), so the node stopped waiting.`,
	};
}

/** The origin of a Location header (relative ones against the request's address); never its path or query. */
function originOf(location: unknown, requestUrl: string): string | undefined {
	const text = Array.isArray(location) ? location[0] : location;
	if (typeof text !== 'string' || text.trim() === '') return undefined;
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
		summary: `${stepLabel(step)} answered ${statusCode} with more than ${formatBytes(maxBytes)}, more than such an answer can be; the node stopped reading it.`,
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
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
	// Object storage answers with S3-style XML: <Error><Code>..</Code><Message>..</Message></Error>
	const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
	const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
	if (code !== undefined || message !== undefined) return { code, message };
	if (text.trim().startsWith('{')) {
		try {
			return readServiceError(JSON.parse(text) as unknown);
		} catch {
			return {};
		}
	}
	return {};
}

/** An HTTP answer whose status is not a success. */
export function httpFailure(step: Step, answer: HttpAnswer, retryAfterMs?: number): Failure {
	const service = readServiceError(answer.body);
	const code = service.code === undefined ? undefined : capText(service.code, 100);
	const text =
		service.message === undefined ? undefined : capText(service.message, MAX_SERVICE_TEXT);
	const said = text ? `: ${code ? `${code}: ` : ''}${text}` : '';
	return {
		step,
		statusCode: answer.statusCode,
		serviceCode: code,
		serviceMessage: text,
		details: service.details,
		retryAfterMs,
		summary: `${stepLabel(step)} answered ${answer.statusCode}${said}`,
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
