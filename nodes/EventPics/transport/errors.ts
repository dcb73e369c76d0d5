import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../helpers/baseUrl';
import { capText, stepLabel } from './failures';
import type { Failure } from './types';
import { redact, redactDeep } from './redact';

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
	/** The caller's words for what to do, given the general advice (the trigger has no upload options). */
	advice?: (general: string) => string;
}

/** Longest message and description of an error, and longest `details` (as JSON) kept from the service. */
const MAX_ERROR_TEXT = 2000;
const MAX_DETAILS_JSON = 4000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function triedText(context: FailureContext): string {
	if (!context.attempts || context.attempts < 2) return '';
	return ` Tried ${context.attempts} times over about ${seconds(context.elapsedMs ?? 0)}.`;
}

function refusedWaitText(context: FailureContext): string {
	const refused = context.waitRefused;
	if (!refused) return '';
	return ` EventPics asked to wait ${seconds(refused.askedMs)} before the next try (Retry-After), more than the ${seconds(refused.leftMs)} left of "Max Total Wait (Seconds)", so the node stopped at once instead of waiting.`;
}

/** The service's details, redacted and cut to a few KB. */
function cappedDetails(details: unknown, secret: string | undefined): unknown {
	const clean = redactDeep(details, secret);
	const json = JSON.stringify(clean) ?? 'null';
	return json.length <= MAX_DETAILS_JSON ? clean : capText(json, MAX_DETAILS_JSON);
}

function adviceFor(failure: Failure): string {
	const status = failure.statusCode;
	if (failure.redirectTo !== undefined) {
		return `Check the Base URL in the EventPics credential: it must be the address of the EventPics API itself (${DEFAULT_BASE_URL}), not an address that forwards elsewhere.`;
	}
	if (failure.tooLarge) {
		return 'Check the Base URL in the EventPics credential: the server there does not answer like the EventPics API.';
	}
	if (failure.networkCode === 'STALLED' || failure.networkCode === 'TOO_SLOW') {
		return 'The connection to the storage stopped moving data. Run the workflow again; if the network pauses for longer than Options > "Timeout (Seconds)", raise it.';
	}
	if (failure.networkCode === 'DEADLINE_EXCEEDED') {
		return 'EventPics answered too slowly. Run the workflow again later, check the Base URL, or raise Options > "Timeout (Seconds)".';
	}
	if (status === 401) {
		return 'Check the API key in the EventPics credential: copy it again from the EventPics app (open the event, then the API key management).';
	}
	if (status === 400) {
		return 'EventPics refused the request as sent. Check the event, album, file name and Taken At of this item.';
	}
	if (status === 429) {
		return 'EventPics is limiting the request rate of this key. Lower "Concurrent Uploads", raise "Max Attempts" or "Max Total Wait", or run the workflow again later.';
	}
	if (status !== undefined && status >= 500) {
		return 'EventPics had a server problem. Run the workflow again later; if it persists, contact EventPics support.';
	}
	if (failure.step === 'put' && status === 403) {
		return "The storage refused the pre-signed upload address even after fresh ones were asked for. The Content-Type sent must be the one the address was signed for; check the file name's extension.";
	}
	if (failure.networkCode) {
		return 'No answer came back. Check the network and the Base URL in the credential, then run the workflow again.';
	}
	return 'Run the workflow again; if it persists, contact EventPics support with the details above.';
}

/** Turns a transport failure into the error a user sees: what failed, how often, what to try. */
export function failureToError(
	node: INode,
	failure: Failure,
	context: FailureContext = {},
): NodeApiError | NodeOperationError {
	const { secret } = context;
	const message = capText(redact(failure.summary.replace(/\.$/, ''), secret), MAX_ERROR_TEXT);
	const description = capText(
		`${context.advice ? context.advice(adviceFor(failure)) : adviceFor(failure)}${refusedWaitText(context)}${triedText(context)}${(context.brokenTransfers ?? []).map((text) => ` ${text}`).join('')}`,
		MAX_ERROR_TEXT,
	);
	if (failure.statusCode === undefined) {
		return new NodeOperationError(node, message, { description, itemIndex: context.itemIndex });
	}
	const response: JsonObject = {
		step: failure.step,
		statusCode: failure.statusCode,
		code: redact(failure.serviceCode ?? '', secret) || null,
		message: capText(
			redact(failure.serviceMessage ?? stepLabel(failure.step), secret),
			MAX_ERROR_TEXT,
		),
		details: cappedDetails(failure.details, secret) as JsonObject,
	};
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(failure.statusCode),
		itemIndex: context.itemIndex,
	});
}
