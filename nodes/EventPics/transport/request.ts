import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { jsonParse, NodeOperationError, sleep } from 'n8n-workflow';

import { checkBaseUrl } from '../helpers/baseUrl';
import type { Facts, Kind, Step } from '../helpers/errors';
import { EventPicsError, isNetworkCode } from '../helpers/errors';
import { parseEvents } from '../helpers/events';
import { headerText, shownSize } from '../helpers/text';

/** The contexts that talk to EventPics: operations, dropdowns and the trigger's poll. */
export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/**
 * Tries (the first included), their summed waits, the backoff's first step and cap. timeoutMs: a call's
 * deadline, a transfer's longest stall (S3-like storage drops a connection idle ~20 s): only the stuck end.
 */
export const DEFAULT_POLICY = Object.freeze({
	maxAttempts: 8,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	timeoutMs: 60_000,
});
export type Policy = Record<keyof typeof DEFAULT_POLICY, number>;

/** An answer body as n8n hands it out with `encoding: 'stream'`. */
export type AnswerStream = AsyncIterable<Buffer | string> & { destroy: (error?: Error) => void };

export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** 256 kbit/s, below any uplink that still carries photos: where bytes cannot be seen, or a server drips. */
export const SLOWEST_LINK_BYTES_PER_SECOND = 32 * 1024;

/** The execution's cancel signal (the user stopping the workflow) joined with `signal`. */
export function withCancel(ctx: Context, signal: AbortSignal): AbortSignal {
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return cancel ? AbortSignal.any([signal, cancel]) : signal;
}

/** `ctx` whose cancel signal is `signal`: n8n's helpers replace a request's `abortSignal` by it. */
export function callerWith<T extends Context>(ctx: T, signal: AbortSignal): T {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as T;
}

export type TransferWatch = ReturnType<typeof watchTransfer>;

/**
 * A watchdog over one transfer: the caller counts bytes (`moved`; `quietFor`: none due for a while); it
 * aborts `signal` when none moved for `stallMs`, below `minBytesPerSecond` after it, or at `deadlineMs`.
 */
export function watchTransfer(limits: {
	stallMs: number;
	minBytesPerSecond?: number;
	deadlineMs?: number;
}) {
	const controller = new AbortController();
	let [lastAt, ended] = [Date.now(), false];
	const watch = {
		signal: controller.signal as AbortSignal,
		startedAt: lastAt,
		stopped: undefined as 'stalled' | 'tooSlow' | 'deadline' | undefined,
		bytes: 0,
		moved: (count: number) => {
			watch.bytes += count;
			lastAt = Math.max(lastAt, Date.now());
		},
		quietFor: (ms: number) => void (lastAt = Math.max(lastAt, Date.now() + ms)),
		end: () => void (ended = true),
	};
	const { stallMs, minBytesPerSecond = 0, deadlineMs = Infinity } = limits;
	const every = Math.max(25, Math.min(1000, Math.floor(Math.min(stallMs, deadlineMs) / 4)));
	void (async () => {
		while (!ended && !watch.stopped) {
			await sleep(every);
			const now = Date.now();
			const owed = (minBytesPerSecond * (now - watch.startedAt - stallMs)) / 1000;
			if (ended) return;
			if (now - watch.startedAt >= deadlineMs) watch.stopped = 'deadline';
			else if (now - lastAt >= stallMs) watch.stopped = 'stalled';
			else if (owed > 0 && watch.bytes < owed) watch.stopped = 'tooSlow';
			if (watch.stopped) controller.abort(new Error(`The transfer was stopped: ${watch.stopped}`));
		}
	})();
	return watch;
}

/** An answer body, at most `maxBytes`, never past `signal` (a server that drips cannot hold the node). */
export async function readAnswer(
	stream: AnswerStream,
	maxBytes: number,
	signal: AbortSignal,
	facts: Facts & { onBytes?: (count: number) => void },
): Promise<Buffer> {
	const stop = () => stream.destroy();
	if (signal.aborted) stop();
	signal.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	let size = 0;
	let failure: EventPicsError | undefined;
	try {
		for await (const chunk of stream) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			facts.onBytes?.(bytes.length);
			if (size > maxBytes) {
				stream.destroy();
				failure = new EventPicsError('tooLarge', { ...facts, detail: shownSize(maxBytes) });
				break;
			}
			chunks.push(bytes);
		}
	} catch (error) {
		failure = signal.aborted ? undefined : networkFacts(facts.step, error);
	} finally {
		signal.removeEventListener('abort', stop);
	}
	if (failure) throw failure;
	if (signal.aborted) throw new EventPicsError('deadline', facts);
	return Buffer.concat(chunks);
}

/** JSON when it is JSON, else text; an error answer over 64 KiB stays text (parsing it costs seconds). */
export function parseBody(bytes: Buffer, statusCode = 200): unknown {
	if ((statusCode < 200 || statusCode > 299) && bytes.length > 64 * 1024)
		return bytes.toString('utf8', 0, 64 * 1024);
	const text = bytes.toString('utf8');
	return text.trim() === '' ? '' : jsonParse<unknown>(text, { fallbackValue: text });
}

/**
 * What ended a request without an answer: n8n's SSRF refusal or a network code, in the error or its
 * causes; else the error as thrown (n8n can fail before sending: no network failure to check).
 */
export function networkFacts(step: Step, error: unknown, more: Partial<Facts> = {}) {
	let thrown = 'an error without a message';
	for (let cause = error as IDataObject | undefined, depth = 0; cause && depth < 5; depth++) {
		const { name, description, code, message } = cause;
		if (name === 'SsrfBlockedIpError' || name === 'SsrfBlockedHostnameError') {
			const detail = typeof description === 'string' ? description : 'the address is restricted';
			return new EventPicsError('ssrf', { ...more, step, detail });
		}
		if (typeof code === 'string' && isNetworkCode(code))
			return new EventPicsError('noAnswer', { ...more, step, networkCode: code });
		if (typeof message === 'string' && message.trim() !== '') {
			const named = typeof name === 'string' && name !== 'Error' ? `${name}: ` : '';
			const coded = typeof code === 'string' || typeof code === 'number' ? ` (${code})` : '';
			thrown = `${named}${message}${coded}`;
		}
		cause = cause.cause as IDataObject | undefined;
	}
	return new EventPicsError('failed', { ...more, step, detail: thrown });
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if readable. */
export function retryAfterMs(value: string | undefined, nowMs = Date.now()): number | undefined {
	const text = value?.trim();
	if (!text || text.length > 64) return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

const KINDS: Record<number, Kind> = { 400: 'badRequest', 401: 'unauthorized', 429: 'rateLimited' };

/**
 * A non-2xx answer's failure, with what the API's Error object or the storage's S3 XML error said;
 * nothing else is kept: an upload address or a File URL may point anywhere.
 */
export function statusError(
	step: Step,
	statusCode: number,
	headers: Record<string, unknown> | undefined,
	body: unknown,
) {
	const api = step === 'geteventsandalbums' || step === 'getuploadurl';
	const object = api && typeof body === 'object' && body !== null ? (body as IDataObject) : {};
	const field = (name: string) =>
		typeof object[name] === 'string' ? String(object[name]) : undefined;
	const text = step === 'put' && typeof body === 'string' ? body.slice(0, 64 * 1024) : '';
	const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
	const said = api
		? { code: field('code'), message: field('message'), details: object.details }
		: { code: tag('Code'), message: tag('Message') };
	const kind = KINDS[statusCode] ?? (statusCode >= 500 ? 'serverError' : 'status');
	const retryAfter = retryAfterMs(headerText(headers, 'retry-after'));
	return new EventPicsError(kind, { step, statusCode, said, retryAfterMs: retryAfter });
}

/** Largest answer of each service call read: an events list of 4 MiB is thousands of events. */
const MAX_ANSWER = { geteventsandalbums: 4 * 1024 * 1024, getuploadurl: 64 * 1024 };

/**
 * One call to the service, its 2xx body parsed: the credential applied by n8n (or the key in the body of
 * getuploadurl, sparing ~1 ms a file); no redirect followed (the key would go along); one deadline.
 */
async function callApi(
	ctx: Context,
	step: keyof typeof MAX_ANSWER,
	baseUrl: string,
	timeoutMs: number,
	body?: object,
): Promise<unknown> {
	const deadline = AbortSignal.timeout(timeoutMs);
	const signal = withCancel(ctx, deadline);
	const full: IHttpRequestOptions = {
		method: body ? 'POST' : 'GET',
		url: `${baseUrl}/${step}`,
		headers: {
			Accept: 'application/json',
			...(body ? { 'Content-Type': 'application/json' } : { 'Cache-Control': 'no-store' }),
		},
		...(body && { body: JSON.stringify(body) }),
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
	const response = (await (
		body
			? ctx.helpers.httpRequest.call(caller, full)
			: ctx.helpers.httpRequestWithAuthentication.call(caller, 'eventPicsApi', full)
	).catch((error: unknown) => {
		throw deadline.aborted
			? new EventPicsError('deadline', { step, timeoutMs })
			: networkFacts(step, error);
	})) as IN8nHttpFullResponse;
	const { statusCode, headers } = response;
	const stream = response.body as AnswerStream;
	if (REDIRECTS.has(statusCode)) {
		stream.destroy();
		const location = headerText(headers, 'location') ?? '';
		const target = URL.canParse(location, full.url) ? new URL(location, full.url) : undefined;
		const detail = target && /^https?:$/.test(target.protocol) ? target.origin : target?.protocol;
		throw new EventPicsError('redirect', { step, statusCode, detail });
	}
	const bytes = await readAnswer(stream, MAX_ANSWER[step], signal, { step, statusCode, timeoutMs });
	const parsed = parseBody(bytes, statusCode);
	if (statusCode < 200 || statusCode > 299) throw statusError(step, statusCode, headers, parsed);
	return parsed;
}

const malformed = (step: Step, detail: string) =>
	new EventPicsError('malformed', { step, statusCode: 200, detail });

const TRANSIENT_CODES =
	/^(ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_CONNECTION_TIMEOUT|ERR_STREAM_PREMATURE_CLOSE|UND_ERR_SOCKET)$/;

/** A failure worth another try: 408, 429, 500, 502-504, a deadline or stall, a connection lost on the way. */
export function isTransient({ kind, facts }: EventPicsError): boolean {
	if (['deadline', 'stalled', 'tooSlow'].includes(kind)) return true;
	if (facts.statusCode !== undefined)
		return [408, 429, 500, 502, 503, 504].includes(facts.statusCode);
	return kind === 'noAnswer' && TRANSIENT_CODES.test(facts.networkCode ?? '');
}

/**
 * Runs `attempt` until it succeeds, `decide` stops it, or the tries or total wait are used up, waiting
 * its jittered backoff or a longer Retry-After. A 429 asking for 1 s or more is pacing: not counted
 * against Max Attempts (four times that bounds all tries). A wait past Max Total Wait ends at once.
 */
export async function withRetries<T>(
	policy: Policy,
	attempt: (attemptNumber: number) => Promise<T>,
	decide = (error: EventPicsError): 'retry' | 'now' | 'stop' =>
		isTransient(error) ? 'retry' : 'stop',
): Promise<T> {
	const startedAt = Date.now();
	let waitedMs = 0;
	let counted = 0;
	for (let attemptNumber = 1; ; attemptNumber++) {
		let error: unknown;
		try {
			return await attempt(attemptNumber);
		} catch (thrown) {
			error = thrown;
		}
		if (!(error instanceof EventPicsError)) throw error;
		const decision = decide(error);
		const asked = error.facts.retryAfterMs ?? 0;
		const paced = error.kind === 'rateLimited' && asked >= 1000;
		if (!paced) counted++;
		const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attemptNumber - 1));
		const backoff = paced
			? policy.baseDelayMs / 2
			: Math.round(step / 2 + (Math.random() * step) / 2);
		const delay = decision === 'now' ? 0 : Math.max(asked, backoff);
		const last = counted >= policy.maxAttempts || attemptNumber >= policy.maxAttempts * 4;
		const stop = last || decision === 'stop';
		// waitedMs never passes Max Total Wait, so only a wait (not 'now') can go over it
		const over = !stop && waitedMs + delay > policy.maxTotalWaitMs;
		if (stop || over) {
			const leftMs = policy.maxTotalWaitMs - waitedMs;
			const waitRefused = over && asked > 0 ? { askedMs: delay, leftMs } : undefined;
			const tries = { attempts: attemptNumber, elapsedMs: Date.now() - startedAt, waitRefused };
			error.facts = { ...error.facts, tries };
			throw error;
		}
		if (delay > 0) await sleep(delay);
		waitedMs += delay;
	}
}

/** GET /geteventsandalbums: the events of the key, albums read by `id` or `albumId`. */
export async function listEvents(ctx: Context, baseUrl: string, policy: Policy) {
	return await withRetries(policy, async () => {
		const events = parseEvents(await callApi(ctx, 'geteventsandalbums', baseUrl, policy.timeoutMs));
		if (events) return events;
		throw malformed('geteventsandalbums', 'a JSON "events" list');
	});
}

/** POST /getuploadurl, once: the pre-signed address of one file (no album, no Taken At: left out). */
export async function requestUploadUrl(
	ctx: Context,
	{ baseUrl, apiKey }: { baseUrl: string; apiKey: string },
	file: { linkId: string; fileName: string; albumId?: string; takenAt?: number },
	timeoutMs: number,
): Promise<string> {
	const { linkId, fileName, albumId, takenAt } = file;
	const body = { apiKey, linkId, fileName, albumId: albumId || undefined, takenAt };
	const answer = await callApi(ctx, 'getuploadurl', baseUrl, timeoutMs, body);
	const uploadUrl = (answer as IDataObject | null)?.uploadUrl;
	if (typeof uploadUrl === 'string' && /^https?:\/\//i.test(uploadUrl)) return uploadUrl;
	throw malformed('getuploadurl', 'an "uploadUrl" address');
}

/** The credential, refused before anything is sent if its Base URL would expose the key, or no key. */
export async function readCredential(ctx: Context): Promise<{ baseUrl: string; apiKey: string }> {
	const { apiKey, baseUrl } = (await ctx.getCredentials('eventPicsApi')) as Record<string, unknown>;
	const base = checkBaseUrl(baseUrl);
	const refuse = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { description });
	if (!base.ok)
		throw refuse(
			`The Base URL of the EventPics credential is refused: ${base.reason}`,
			'Open the EventPics credential and correct its Base URL.',
		);
	const key = typeof apiKey === 'string' ? apiKey.trim() : '';
	if (key === '')
		throw refuse(
			'The EventPics credential has no API key',
			'Open the EventPics credential and paste the API key from the EventPics app.',
		);
	return { baseUrl: base.url, apiKey: key };
}
