import type { IDataObject } from 'n8n-workflow';

import type { Failure, HttpAnswer, Step } from './types';

const STEP_LABEL: Record<Step, string> = {
	geteventsandalbums: 'Listing the events (GET /geteventsandalbums)',
	getuploadurl: 'Asking for an upload address (POST /getuploadurl)',
	put: 'Uploading the file to the upload address (PUT)',
	download: 'Downloading the file from its URL',
};

export function stepLabel(step: Step): string {
	return STEP_LABEL[step];
}

function findNetworkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as IDataObject).code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'ERR_BAD_RESPONSE') return code;
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
	const said = service.message ? `: ${service.code ? `${service.code}: ` : ''}${service.message}` : '';
	return {
		step,
		statusCode: answer.statusCode,
		serviceCode: service.code,
		serviceMessage: service.message,
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
