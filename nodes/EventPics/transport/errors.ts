import type { INode, JsonObject, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../helpers/baseUrl';
import { shownSize } from '../helpers/size';
import { capText, headerValue } from '../helpers/text';
import type { CallLimit } from './retry';
import type { HttpAnswer, Step } from './request';
import { redactCapped, redactDetails } from './redact';

/** What went wrong with one request, in terms safe to show a user (never the API key). */
export interface Failure {
	step: Step;
	statusCode?: number;
	/** Node.js network error code such as ECONNRESET, when no HTTP answer came. */
	networkCode?: string;
	/** Of the service's Error object or the storage's XML error, as they came: shown only by showFailure. */
	serviceCode?: string;
	serviceMessage?: string;
	details?: unknown;
	/** A redirect's target origin (never its path or query), null when it named none. */
	redirectTo?: string | null;
	/** getuploadurl answered with an address the node does not send files to (see uploadAddress.ts). */
	refusedAddress?: boolean;
	tooLarge?: boolean;
	retryAfterMs?: number;
	/** One sentence describing the failure (what the service said is added where it is shown). */
	summary: string;
}

export type NetworkKind =
	| 'refused'
	| 'notFound'
	| 'closed'
	| 'timedOut'
	| 'unreachable'
	| 'certificate'
	| 'invalidUrl'
	| 'other';

export function networkKind(code: string): NetworkKind {
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'notFound';
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE')
		return 'closed';
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ERR_SOCKET_CONNECTION_TIMEOUT')
		return 'timedOut';
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
	if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/.test(code)) return 'certificate';
	if (code === 'ERR_INVALID_URL') return 'invalidUrl';
	return 'other';
}

const NETWORK_ERROR_TEXT: Record<NetworkKind, string> = {
	refused: 'the server refused the connection (nothing listens there)',
	notFound: 'the host name was not found',
	closed: 'the server closed the connection before it answered',
	timedOut: 'the connection timed out',
	unreachable: 'the server cannot be reached',
	certificate: 'the HTTPS certificate of the server is not trusted',
	invalidUrl: 'the address is not valid',
	other: 'no connection could be made',
};

/**
 * What a network error code means, in words. The code itself stays out of an error's message: n8n
 * swaps a message naming ECONNRESET, ECONNREFUSED, ETIMEDOUT and the like for a generic sentence
 * that no longer says which request failed (the description, which names the code, is kept).
 */
export function networkErrorText(code: string): string {
	return NETWORK_ERROR_TEXT[networkKind(code)];
}

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

function fromCauses<T>(error: unknown, pick: (error: IDataObject) => T | undefined): T | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const found = pick(current as IDataObject);
		if (found !== undefined) return found;
		current = (current as IDataObject).cause;
	}
	return undefined;
}

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
		summary: `${stepLabel(step)} got no answer: ${networkErrorText(networkCode)}.`,
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

export function malformedFailure(step: Step, answer: HttpAnswer, expected: string): Failure {
	return {
		step,
		statusCode: answer.statusCode,
		summary: `${stepLabel(step)} answered ${answer.statusCode} without ${expected}.`,
	};
}

export interface FailureContext {
	itemIndex?: number;
	attempts?: number;
	elapsedMs?: number;
	/** The service asked for a longer wait than Max Total Wait had left. */
	waitRefused?: { askedMs: number; leftMs: number };
	/** The API key: blanked out of anything the service said, should it ever echo it. */
	secret?: string;
	/** Tries of the upload that broke off while the file was moving, one sentence each. */
	brokenTransfers?: string[];
	/** The caller's words for some kinds of failure (the operation names its options, the trigger its next poll). */
	advice?: AdviceByKind;
	afterAdvice?: string;
	waitLimit?: string;
}

/** Longest message and description of an error, and longest `details` (as JSON) kept from the service. */
const MAX_ERROR_TEXT = 2000;
const MAX_DETAILS_JSON = 4000;
/** Longest `code` and `message` of the service shown. */
const MAX_SERVICE_CODE = 100;
const MAX_SERVICE_TEXT = 1000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function triedText(context: FailureContext): string {
	if (!context.attempts || context.attempts < 2) return '';
	return ` Tried ${context.attempts} times over about ${seconds(context.elapsedMs ?? 0)}.`;
}

function networkCodeText(failure: Failure): string {
	return failureKind(failure) === 'noAnswer' ? ` Network error code: ${failure.networkCode}.` : '';
}

function refusedWaitText(context: FailureContext): string {
	const refused = context.waitRefused;
	if (!refused) return '';
	const limit = context.waitLimit ?? 'the time the node may wait between tries';
	return ` EventPics asked to wait ${seconds(refused.askedMs)} before the next try (Retry-After), more than the ${seconds(refused.leftMs)} left of ${limit}, so the node stopped at once instead of waiting.`;
}

export type FailureKind =
	| 'redirect'
	| 'refusedAddress'
	| 'ssrf'
	| 'tooLarge'
	| 'stalled'
	| 'deadline'
	| 'unauthorized'
	| 'badRequest'
	| 'rateLimited'
	| 'serverError'
	| 'putRefused'
	| 'noAnswer'
	| 'other';

export type AdviceByKind = Partial<Record<FailureKind, string>>;

export function failureKind(failure: Failure): FailureKind {
	const { statusCode: status, networkCode: code } = failure;
	if (failure.redirectTo !== undefined) return 'redirect';
	if (failure.refusedAddress) return 'refusedAddress';
	if (code === 'SSRF_BLOCKED') return 'ssrf';
	if (failure.tooLarge) return 'tooLarge';
	if (code === 'STALLED' || code === 'TOO_SLOW') return 'stalled';
	if (code === 'DEADLINE_EXCEEDED') return 'deadline';
	if (status === 401) return 'unauthorized';
	if (status === 400) return 'badRequest';
	if (status === 429) return 'rateLimited';
	if (status !== undefined && status >= 500) return 'serverError';
	if (failure.step === 'put' && status === 403) return 'putRefused';
	return code ? 'noAnswer' : 'other';
}

/** What to do, in general words: no option of any operation is named here (the caller's words do). */
const GENERAL_ADVICE: Record<FailureKind, string> = {
	redirect: `Check the Base URL in the EventPics credential: it must be the address of the EventPics API itself (${DEFAULT_BASE_URL}), not an address that forwards elsewhere.`,
	refusedAddress:
		"An upload address must use https:// (plain http:// only with a local http:// Base URL) and point outside this machine and its network, unless the Base URL is itself a local address. Check the Base URL in the EventPics credential: the EventPics API answers with its storage's https:// address.",
	ssrf: "n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocked the connection. If this address is meant to be reached (a local set-up), allow it in N8N_SSRF_ALLOWED_IP_RANGES or N8N_SSRF_ALLOWED_HOSTNAMES.",
	tooLarge:
		'Check the Base URL in the EventPics credential: the server there does not answer like the EventPics API.',
	stalled: 'The connection to the storage stopped moving data. Run the workflow again.',
	deadline: 'EventPics answered too slowly. Run the workflow again later, or check the Base URL.',
	unauthorized:
		'Check the API key in the EventPics credential: copy it again from the EventPics app (open the event, then the API key management).',
	badRequest:
		'EventPics refused the request as sent. Check the event, album, file name and Taken At of this item.',
	rateLimited: 'EventPics is limiting the request rate of this key. Run the workflow again later.',
	serverError:
		'EventPics answered with a server error. Run the workflow again later; if it persists, contact EventPics support.',
	putRefused:
		"The storage refused the pre-signed upload address even after fresh ones were asked for. The Content-Type sent must be the one the address was signed for; check the file name's extension.",
	noAnswer:
		'No answer came back. Check the network and the Base URL in the credential, then run the workflow again.',
	other:
		'Run the workflow again; if it persists, contact EventPics support with the details above.',
};

function adviceFor(failure: Failure, context: FailureContext): string {
	const kind = failureKind(failure);
	const advice = context.advice?.[kind] ?? GENERAL_ADVICE[kind];
	return context.afterAdvice ? `${advice} ${context.afterAdvice}` : advice;
}

/** What a failure shows, cut then redacted (a few KB of work whatever the answer), once however many items it fails. */
export interface ShownFailure {
	failure: Failure;
	message: string;
	response?: JsonObject;
}

export function showFailure(failure: Failure, secret?: string): ShownFailure {
	const code =
		failure.serviceCode === undefined
			? undefined
			: redactCapped(failure.serviceCode, MAX_SERVICE_CODE, secret);
	const text =
		failure.serviceMessage === undefined
			? undefined
			: redactCapped(failure.serviceMessage, MAX_SERVICE_TEXT, secret);
	const said = text ? `: ${code ? `${code}: ` : ''}${text}` : '';
	const sentence = `${failure.summary}${said}`;
	const message = redactCapped(
		sentence.endsWith('.') ? sentence.slice(0, -1) : sentence,
		MAX_ERROR_TEXT,
		secret,
	);
	if (failure.statusCode === undefined) return { failure, message };
	const response: JsonObject = {
		step: failure.step,
		statusCode: failure.statusCode,
		code: code || null,
		message: text ?? stepLabel(failure.step),
		details: redactDetails(failure.details, MAX_DETAILS_JSON, secret) as JsonObject,
	};
	return { failure, message, response };
}

/** Turns a transport failure into the error a user sees: what failed, how often, what to try. */
export function failureToError(
	node: INode,
	failed: Failure | ShownFailure,
	context: FailureContext = {},
): NodeApiError | NodeOperationError {
	const shown = 'summary' in failed ? showFailure(failed, context.secret) : failed;
	const { failure, message, response } = shown;
	const description = capText(
		`${adviceFor(failure, context)}${networkCodeText(failure)}${refusedWaitText(context)}${triedText(context)}${(context.brokenTransfers ?? []).map((text) => ` ${text}`).join('')}`,
		MAX_ERROR_TEXT,
	);
	if (response === undefined) {
		return new NodeOperationError(node, message, { description, itemIndex: context.itemIndex });
	}
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(failure.statusCode),
		itemIndex: context.itemIndex,
	});
}
