import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { networkFailure } from './failures';
import type { EventPicsContext, HttpAnswer, Result, Step } from './types';
import { CREDENTIAL_TYPE } from './types';

/** Timeout of the two service calls; the PUT has none, as a large file may take long. */
export const API_TIMEOUT_MS = 60_000;

function toAnswer(response: IN8nHttpFullResponse): HttpAnswer {
	return {
		statusCode: response.statusCode,
		headers: (response.headers ?? {}) as Record<string, unknown>,
		body: response.body,
	};
}

/**
 * One request to the service with the credential's authentication applied. Every status comes
 * back as an answer; only a request that got no answer is a failure.
 */
export async function sendAuthenticated(
	ctx: EventPicsContext,
	step: Step,
	options: IHttpRequestOptions,
): Promise<Result<HttpAnswer>> {
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
		return { ok: true, value: toAnswer(response) };
	} catch (error) {
		return { ok: false, failure: networkFailure(step, error) };
	}
}

/** One request without any credential: the PUT to the pre-signed address. */
export async function sendAnonymous(
	ctx: EventPicsContext,
	step: Step,
	options: IHttpRequestOptions,
): Promise<Result<HttpAnswer>> {
	try {
		const response = (await ctx.helpers.httpRequest({
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
		return { ok: true, value: toAnswer(response) };
	} catch (error) {
		return { ok: false, failure: networkFailure(step, error) };
	}
}
