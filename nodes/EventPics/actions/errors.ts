import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { stepLabel } from '../transport/failures';
import type { Failure } from '../transport/types';

export interface FailureContext {
	itemIndex?: number;
	attempts?: number;
	waitedMs?: number;
	/** The API key: blanked out of anything the service said, should it ever echo it. */
	secret?: string;
}

export const REDACTED = '[redacted API key]';

/** `text` with every occurrence of `secret` replaced. */
export function redact(text: string, secret: string | undefined): string {
	return secret ? text.split(secret).join(REDACTED) : text;
}

function redactDeep(value: unknown, secret: string | undefined): unknown {
	if (!secret || value === undefined || value === null) return value ?? null;
	return JSON.parse(redact(JSON.stringify(value), secret)) as unknown;
}

function triedText(context: FailureContext): string {
	if (!context.attempts || context.attempts < 2) return '';
	const seconds = Math.round((context.waitedMs ?? 0) / 1000);
	return ` Tried ${context.attempts} times over about ${seconds} s.`;
}

function adviceFor(failure: Failure): string {
	const status = failure.statusCode;
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
		return 'The storage refused the pre-signed upload address even after fresh ones were asked for. The Content-Type sent must be the one the address was signed for; check the file name\'s extension.';
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
	const message = redact(failure.summary.replace(/\.$/, ''), secret);
	const description = `${adviceFor(failure)}${triedText(context)}`;
	if (failure.statusCode === undefined) {
		return new NodeOperationError(node, message, { description, itemIndex: context.itemIndex });
	}
	const response: JsonObject = {
		step: failure.step,
		statusCode: failure.statusCode,
		code: redact(failure.serviceCode ?? '', secret) || null,
		message: redact(failure.serviceMessage ?? stepLabel(failure.step), secret),
		details: redactDeep(failure.details, secret) as JsonObject,
	};
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(failure.statusCode),
		itemIndex: context.itemIndex,
	});
}
