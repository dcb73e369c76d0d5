import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../helpers/baseUrl';
import { capText } from '../helpers/text';
import { stepLabel } from './failures';
import type { Failure } from './types';
import { redactCapped, redactDetails } from './redact';

export interface FailureContext {
	itemIndex?: number;
	attempts?: number;
	/** Wall time of all tries, from the first to the end. */
	elapsedMs?: number;
	/** The service asked for a longer wait than Max Total Wait had left. */
	waitRefused?: { askedMs: number; leftMs: number };
	/** The API key: blanked out of anything the service said, should it ever echo it. */
	secret?: string;
	/** Tries of the upload that broke off while the file was moving, one sentence each. */
	brokenTransfers?: string[];
	/**
	 * The caller's words for some kinds of failure: the operation names its own options (transport
	 * knows none), the trigger says it asks again at its next poll.
	 */
	advice?: AdviceWords;
	/** Said after the advice, whatever the failure. */
	afterAdvice?: string;
	/** The caller's name for the limit on all waits of a request, as its user sets it. */
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

/** The network error code of a request that got no answer (its message says it in words). */
function networkCodeText(failure: Failure): string {
	return failureKind(failure) === 'noAnswer' ? ` Network error code: ${failure.networkCode}.` : '';
}

function refusedWaitText(context: FailureContext): string {
	const refused = context.waitRefused;
	if (!refused) return '';
	const limit = context.waitLimit ?? 'the time the node may wait between tries';
	return ` EventPics asked to wait ${seconds(refused.askedMs)} before the next try (Retry-After), more than the ${seconds(refused.leftMs)} left of ${limit}, so the node stopped at once instead of waiting.`;
}

/** The kinds of failure a user is advised on, in the order a failure is matched to them. */
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

/** A caller's own words for some kinds of failure (its options, its way of trying again). */
export type AdviceWords = Partial<Record<FailureKind, string>>;

/** The kind of a failure, for its advice. */
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

/**
 * What a failure shows: its message, and for an HTTP answer what the service said. Cut first, then
 * redacted, so the work is a few KB whatever the answer's size; made once per answer, however many
 * items it fails.
 */
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
