import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { Failure } from './errors';
import {
	deadlineFailure,
	httpFailure,
	networkFailure,
	redirectFailure,
	tooLargeFailure,
} from './errors';
import { parseRetryAfter } from './retry';

export const CREDENTIAL_TYPE = 'eventPicsApi';

/** The contexts that may talk to EventPics: operations, dropdown (list search) methods and the trigger's poll. */
export type EventPicsContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** The three requests of the service, named as the API names them, and the download of a URL source. */
export type Step = 'geteventsandalbums' | 'getuploadurl' | 'put' | 'download';

export interface HttpAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** The execution's cancel signal (the user stopping the workflow), when the context has one. */
function cancelSignal(ctx: EventPicsContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** `signal`, joined with the execution's cancel signal when there is one. */
export function withCancel(ctx: EventPicsContext, signal: AbortSignal): AbortSignal {
	const cancel = cancelSignal(ctx);
	return cancel ? AbortSignal.any([signal, cancel]) : signal;
}

/**
 * `ctx` for a request that must end on `signal`: n8n's authenticated helper replaces the request's
 * `abortSignal` by the execution's cancel signal, so this context hands it ours instead.
 */
export function callerWith<T extends EventPicsContext>(ctx: T, signal: AbortSignal): T {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as T;
}

/** An answer body as n8n hands it out with `encoding: 'stream'` (a Node.js readable stream). */
export interface AnswerStream extends AsyncIterable<Buffer | string> {
	destroy: (error?: Error) => void;
	destroyed?: boolean;
}

type AnswerRead =
	| { ok: true; bytes: Buffer }
	| { ok: false; reason: 'tooLarge' | 'deadline' | 'broken'; error?: unknown };

/** The statuses of a redirect: a Location that a download follows, hop by hop, and a call with the key never does. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Reads an answer body, but never more than `maxBytes` (the rest is not read: the stream is
 * destroyed) and never past the deadline `signal` (the stream is destroyed when it fires, so a
 * server that sends one byte now and then cannot hold the node). `onBytes` hears of every chunk.
 */
export async function readAnswer(
	stream: AnswerStream,
	maxBytes: number,
	signal: AbortSignal,
	onBytes?: (count: number) => void,
): Promise<AnswerRead> {
	if (signal.aborted) {
		stream.destroy();
		return { ok: false, reason: 'deadline' };
	}
	const onAbort = () => stream.destroy();
	signal.addEventListener('abort', onAbort, { once: true });
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			onBytes?.(bytes.length);
			if (size > maxBytes) {
				stream.destroy();
				return { ok: false, reason: 'tooLarge' };
			}
			chunks.push(bytes);
		}
		if (signal.aborted) return { ok: false, reason: 'deadline' };
		return { ok: true, bytes: Buffer.concat(chunks) };
	} catch (error) {
		return signal.aborted
			? { ok: false, reason: 'deadline' }
			: { ok: false, reason: 'broken', error };
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * Largest error answer (a status other than 2xx) read as JSON. The service's Error object is a few
 * hundred bytes; parsing megabytes of it is where a hostile answer costs seconds (250,000 keys took
 * V8 about a second), so of a larger one only the start is kept, as text: an error shows nothing of
 * it unless it is an S3-style XML error.
 */
const MAX_ERROR_JSON_BYTES = 64 * 1024;

/** The body as JSON when it is JSON, else as text ('' for none); a large error answer stays text. */
export function parseBody(bytes: Buffer, statusCode = 200): unknown {
	const success = statusCode >= 200 && statusCode <= 299;
	// only its start is ever looked at (an S3-style XML error)
	if (!success && bytes.length > MAX_ERROR_JSON_BYTES)
		return bytes.toString('utf8', 0, MAX_ERROR_JSON_BYTES);
	const text = bytes.toString('utf8');
	if (text.trim() === '') return '';
	return jsonParse<unknown>(text, { fallbackValue: text });
}

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
