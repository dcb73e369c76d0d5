import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { httpFailure, networkFailure } from './failures';
import { parseRetryAfter } from './retry';
import type { EventPicsContext, HttpAnswer, Result, Step } from './types';
import { CREDENTIAL_TYPE } from './types';

/** Timeout of the two service calls; the PUT has none, as a large file may take long. */
export const API_TIMEOUT_MS = 60_000;

/**
 * One request. Every status comes back as an answer; only a request that got no answer is a
 * failure. With `authenticated` n8n applies the credential; without it nothing of the credential
 * is sent (the PUT to the pre-signed address).
 */
async function send(
	ctx: EventPicsContext,
	step: Step,
	options: IHttpRequestOptions,
	authenticated: boolean,
): Promise<Result<HttpAnswer>> {
	const full = { ...options, returnFullResponse: true, ignoreHttpStatusErrors: true };
	try {
		const response = (
			authenticated
				? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, full)
				: await ctx.helpers.httpRequest(full)
		) as IN8nHttpFullResponse;
		return {
			ok: true,
			value: {
				statusCode: response.statusCode,
				headers: (response.headers ?? {}) as Record<string, unknown>,
				body: response.body,
			},
		};
	} catch (error) {
		return { ok: false, failure: networkFailure(step, error) };
	}
}

export async function sendAuthenticated(ctx: EventPicsContext, step: Step, options: IHttpRequestOptions) {
	return await send(ctx, step, options, true);
}

export async function sendAnonymous(ctx: EventPicsContext, step: Step, options: IHttpRequestOptions) {
	return await send(ctx, step, options, false);
}

/** An answer with a 2xx status, or the failure it stands for (with its Retry-After). */
export function successOrFailure(step: Step, answer: HttpAnswer): Result<HttpAnswer> {
	if (answer.statusCode >= 200 && answer.statusCode <= 299) return { ok: true, value: answer };
	const retryAfter = parseRetryAfter(answer.headers['retry-after'], Date.now());
	return { ok: false, failure: httpFailure(step, answer, retryAfter) };
}
