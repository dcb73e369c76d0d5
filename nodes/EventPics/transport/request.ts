import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import type { AnswerStream } from './answer';
import { parseBody, readAnswer, REDIRECT_STATUSES } from './answer';
import {
	deadlineFailure,
	httpFailure,
	networkFailure,
	redirectFailure,
	tooLargeFailure,
} from './failures';
import { parseRetryAfter } from './retryPolicy';
import { callerWith, withCancel } from './signals';
import type { EventPicsContext, HttpAnswer, Result, Step } from './types';
import { CREDENTIAL_TYPE } from './types';

/** Largest answer read from each service call; more is refused. An events list of 4 MiB is thousands of events. */
const MAX_ANSWER_BYTES: Record<'geteventsandalbums' | 'getuploadurl', number> = {
	geteventsandalbums: 4 * 1024 * 1024,
	getuploadurl: 64 * 1024,
};

interface ApiCall {
	step: 'geteventsandalbums' | 'getuploadurl';
	options: IHttpRequestOptions;
	timeoutMs: number;
	timeoutName?: string;
	/**
	 * Whether n8n applies the credential (the Bearer header). getuploadurl carries the key in its
	 * body, which is all the API asks for, so it skips n8n's credential handling (about 1 ms a file).
	 */
	authenticated?: boolean;
}

/**
 * One call to the service, with the credential applied by n8n unless `authenticated` is false. Redirects are never followed (n8n
 * would send the key along), the whole call has a deadline, and at most MAX_ANSWER_BYTES of the
 * answer are read. Every status comes back as an answer; a redirect, a too large or too slow answer
 * and a request that got no answer are failures.
 */
export async function callApi(ctx: EventPicsContext, call: ApiCall): Promise<Result<HttpAnswer>> {
	const { step, timeoutMs } = call;
	// the deadline, joined with the execution's cancel signal (the user stopping the workflow)
	const deadline = AbortSignal.timeout(timeoutMs);
	const signal = withCancel(ctx, deadline);
	const full: IHttpRequestOptions = {
		...call.options,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: timeoutMs,
		abortSignal: signal,
	};
	const caller = callerWith(ctx, signal);
	let response: IN8nHttpFullResponse;
	try {
		response = (
			call.authenticated === false
				? await ctx.helpers.httpRequest.call(caller, full)
				: await ctx.helpers.httpRequestWithAuthentication.call(caller, CREDENTIAL_TYPE, full)
		) as IN8nHttpFullResponse;
	} catch (error) {
		return {
			ok: false,
			failure: deadline.aborted ? deadlineFailure(step, call) : networkFailure(step, error),
		};
	}
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const stream = response.body as AnswerStream;
	const { statusCode } = response;
	if (REDIRECT_STATUSES.has(statusCode)) {
		stream.destroy();
		return {
			ok: false,
			failure: redirectFailure(step, statusCode, headers.location, String(full.url)),
		};
	}
	const read = await readAnswer(stream, MAX_ANSWER_BYTES[step], signal);
	if (!read.ok) {
		if (read.reason === 'tooLarge') {
			return { ok: false, failure: tooLargeFailure(step, statusCode, MAX_ANSWER_BYTES[step]) };
		}
		if (read.reason === 'deadline' && deadline.aborted)
			return { ok: false, failure: deadlineFailure(step, call) };
		return { ok: false, failure: networkFailure(step, read.error) };
	}
	return { ok: true, value: { statusCode, headers, body: parseBody(read.bytes, statusCode) } };
}

/** An answer with a 2xx status, or the failure it stands for (with its Retry-After). */
export function successOrFailure(step: Step, answer: HttpAnswer): Result<HttpAnswer> {
	if (answer.statusCode >= 200 && answer.statusCode <= 299) return { ok: true, value: answer };
	const retryAfter = parseRetryAfter(answer.headers['retry-after'], Date.now());
	return { ok: false, failure: httpFailure(step, answer, retryAfter) };
}
