import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { internalHostReason } from '../helpers/address';
import { EventPicsError, progress } from '../helpers/errors';
import { headerText, shown, shownDuration, shownSize } from '../helpers/text';
import type { Target } from './egress';
import { checkedTarget } from './egress';
import type { RateSignals } from './pacing';
import type { AnswerStream, Policy, TransferWatch } from './request';
import {
	callerWith,
	isTransient,
	networkFacts,
	parseBody,
	readAnswer,
	requestUploadUrl,
	SLOWEST_LINK_BYTES_PER_SECOND,
	statusError,
	watchTransfer,
	withCancel,
	withRetries,
} from './request';

export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;
export type Body = Buffer | BinaryStream;

/** One file to send; `open` opens it anew (a stream is spent once sent), its reader closes it. */
export interface Outgoing {
	linkId: string;
	albumId?: string;
	fileName: string;
	takenAt?: number;
	contentType: string;
	size: number;
	open: () => Promise<Body>;
}

/** An upload address (it lives ~300 s) is reused while surely valid; a 403 gets this many fresh ones. */
const REUSE_MS = 240_000;
const MAX_REFRESHES = 2;

/** The rate of the last seconds of a body, to tell how long its last bytes still need to arrive. */
function rateProbe() {
	const samples: Array<{ at: number; bytes: number }> = [];
	return {
		add: (bytes: number) => {
			const at = Date.now();
			if (samples.length === 0 || at - samples[samples.length - 1].at >= 200) {
				samples.push({ at, bytes });
				while (samples.length > 2 && at - samples[1].at > 5000) samples.shift();
			}
		},
		/** The bytes taken beyond the link's rate since the first: what the connection's buffers still hold. */
		onTheWayMs: (bytes: number) => {
			const now = Date.now();
			const [first, recent] = [samples[0], samples.find((sample) => now - sample.at <= 5000)];
			if (!first || !recent || now - recent.at < 500) return 0;
			const rate = (bytes - recent.bytes) / (now - recent.at);
			const beyond = bytes - first.bytes - rate * (now - first.at);
			if (rate <= 0 || beyond <= 0) return 0;
			return Math.min(beyond / rate, (beyond / SLOWEST_LINK_BYTES_PER_SECOND) * 1000);
		},
	};
}

/**
 * A PUT body's watch: a stream is counted as the request takes it (paused until n8n pipes it); a
 * body in memory goes out in one go, unwatched: it gets Timeout plus its size at 256 kbit/s.
 */
function watchBody(body: Body, size: number, timeoutMs: number) {
	const stream = Buffer.isBuffer(body) ? undefined : body;
	const state = { bytes: stream ? 0 : size, whole: !stream, answering: false };
	const watch = watchTransfer(
		stream
			? { stallMs: timeoutMs }
			: {
					stallMs: Infinity,
					deadlineMs: timeoutMs + (size / SLOWEST_LINK_BYTES_PER_SECOND) * 1000,
				},
	);
	const probe = rateProbe();
	stream?.on('data', (chunk: Buffer) => {
		state.bytes += chunk.length;
		watch.moved(chunk.length);
		probe.add(state.bytes);
	});
	stream?.once('end', () => {
		state.whole = true;
		watch.quietFor(probe.onTheWayMs(state.bytes));
	});
	stream?.pause();
	return { watch, state };
}

/** What a stop of the watch means, by what had happened when it fired; else the network error. */
function stoppedPut(
	watch: TransferWatch,
	state: ReturnType<typeof watchBody>['state'],
	size: number,
	timeoutMs: number,
	error: unknown,
) {
	const timeout = `${shownDuration(timeoutMs)} (Timeout)`;
	if (watch.stopped === 'deadline')
		return new EventPicsError('tooSlow', {
			step: 'put',
			detail: `it did not finish within ${shownDuration(timeoutMs + (size / SLOWEST_LINK_BYTES_PER_SECOND) * 1000)}, Timeout plus the time its ${shownSize(size)} take at 256 kbit/s`,
		});
	if (!watch.stopped) return networkFacts('put', error);
	const detail = state.answering
		? `the storage began to answer, but its answer did not end within ${timeout}`
		: state.whole
			? `all ${shownSize(size)} were sent, then no answer came within ${timeout} of the time its last bytes could arrive`
			: `no data moved for ${timeout} after ${progress(state.bytes, size)} had been sent`;
	return new EventPicsError('stalled', { step: 'put', detail, timeoutMs });
}

/** One PUT, ended only by a stall (n8n's `timeout` runs to the answer's headers: it would bound the body). */
async function sendPut(
	ctx: IExecuteFunctions,
	target: Target,
	file: Outgoing,
	body: Body,
	{ watch, state }: ReturnType<typeof watchBody>,
	timeoutMs: number,
) {
	const signal = withCancel(ctx, watch.signal);
	const stopped = (error: unknown) => stoppedPut(watch, state, file.size, timeoutMs, error);
	try {
		const response = (await ctx.helpers.httpRequest
			.call(callerWith(ctx, signal), {
				method: 'PUT',
				url: target.url,
				body: body as Buffer,
				headers: {
					...target.headers,
					'Content-Type': file.contentType,
					'Content-Length': String(file.size),
				},
				agentOptions: target.agentOptions,
				disableFollowRedirect: true,
				json: false,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				abortSignal: signal,
			})
			.catch((error: unknown) => {
				throw stopped(error);
			})) as IN8nHttpFullResponse;
		// the answer has Timeout from its headers on: its bytes do not restart the clock
		watch.moved(0);
		state.answering = true;
		const { statusCode } = response;
		const facts = { step: 'put' as const, statusCode, timeoutMs };
		const bytes = await readAnswer(response.body as AnswerStream, 64 * 1024, signal, facts).catch(
			(error: unknown) => {
				throw error instanceof EventPicsError && error.kind === 'tooLarge' ? error : stopped(error);
			},
		);
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		if (statusCode < 200 || statusCode > 299)
			throw statusError('put', statusCode, headers, parseBody(bytes, statusCode));
		return { statusCode, etag: headerText(headers, 'etag') };
	} finally {
		watch.end();
	}
}

/** The upload address, refused when plain http:// or internal while the Base URL is not (or `allowInternal`). */
async function uploadTarget(
	ctx: IExecuteFunctions,
	address: string,
	baseUrl: string,
	allowInternal: boolean,
) {
	const refuse = (detail: string) =>
		new EventPicsError('refusedAddress', { step: 'getuploadurl', detail });
	// requestUploadUrl took only an http(s) address
	if (!URL.canParse(address)) throw refuse('it is not an address');
	const url = new URL(address);
	const base = new URL(baseUrl);
	if (url.protocol === 'http:' && base.protocol !== 'http:')
		throw refuse(`"${shown(url.origin)}" uses plain http://, so the file would travel unencrypted`);
	const inside = allowInternal || internalHostReason(base.hostname) !== undefined;
	return await checkedTarget(ctx, url, 'put', inside, shown(url.origin)).catch(
		(error: EventPicsError) => {
			throw Object.assign(error, { facts: { ...error.facts, step: 'getuploadurl' } });
		},
	);
}

/** What a failed PUT leaves in the report: a possible duplicate, or how far its body got. */
function noteFailure(
	report: { possibleDuplicate: boolean; brokenTransfers: string[] },
	failure: EventPicsError,
	{ whole, bytes }: ReturnType<typeof watchBody>['state'],
	attemptNumber: number,
	size: number,
	timeoutMs: number,
) {
	if (failure.facts.statusCode !== undefined) return;
	const broke =
		failure.kind === 'stalled'
			? `no data moved for ${shownDuration(timeoutMs)}`
			: `the connection broke (${failure.facts.networkCode ?? 'no answer'})`;
	// no answer after the whole file went out (a body in memory goes out at once): the storage may have it
	if (whole) report.possibleDuplicate = true;
	else if (bytes > 0)
		report.brokenTransfers.push(
			`Try ${attemptNumber} of the upload was moving when it broke off: ${progress(bytes, size)} had been sent when ${broke}.`,
		);
}

/** A 429's news for the run's pacing; the error itself goes on. */
function throttled(signals: RateSignals, error: unknown, at: number) {
	const { kind, facts } = error as EventPicsError;
	if (kind === 'rateLimited') signals.throttled(facts.retryAfterMs, at);
	return error;
}

/** `sending` waits for the file's turn among those sent at once, and says whether it still goes. */
type UploadOptions = {
	allowInternal: boolean;
	signals: RateSignals;
	sending: () => Promise<boolean>;
};

/** An upload address for the file: `getuploadurl`, paced by the run's rate, its answer checked. */
async function askAddress(
	ctx: IExecuteFunctions,
	credential: { baseUrl: string; apiKey: string },
	file: Outgoing,
	timeoutMs: number,
	{ allowInternal, signals }: UploadOptions,
) {
	await signals.paced();
	const askedAt = Date.now();
	const signed = await requestUploadUrl(ctx, credential, file, timeoutMs).catch(
		(error: unknown) => {
			throw throttled(signals, error, askedAt);
		},
	);
	signals.succeeded(Date.now() - askedAt);
	const target = await uploadTarget(ctx, signed, credential.baseUrl, allowInternal);
	return { target, at: Date.now() };
}

/**
 * The two-step upload: `getuploadurl` (paced by the run's rate), then, once `sending` lets the file
 * go (its turn among the files sent at once; undefined when it does not), the body streamed to the
 * whole address unchanged.
 * Retries what is safe; a refused or expired address (403) is replaced at once, never replayed.
 * Reports the addresses asked for, a possible duplicate and the tries that broke off while the file moved.
 */
export async function uploadFile(
	ctx: IExecuteFunctions,
	credential: { baseUrl: string; apiKey: string },
	file: Outgoing,
	policy: Policy,
	options: UploadOptions,
) {
	const brokenTransfers: string[] = [];
	const report = { uploadUrlRequests: 0, possibleDuplicate: false, brokenTransfers };
	let address: { target: Target; at: number } | undefined;
	let refreshes = 0;
	const fresh = async () => {
		if (address && Date.now() - address.at <= REUSE_MS) return address.target;
		report.uploadUrlRequests++;
		address = await askAddress(ctx, credential, file, policy.timeoutMs, options);
		return address.target;
	};
	const attempt = async (attemptNumber: number) => {
		await fresh();
		if (!(await options.sending())) return undefined;
		// the files sent before it may have taken longer than its address lives
		const target = await fresh();
		const putAt = Date.now();
		const body = await file.open();
		const sent = watchBody(body, file.size, policy.timeoutMs);
		try {
			const done = await sendPut(ctx, target, file, body, sent, policy.timeoutMs);
			options.signals.succeeded();
			return { ...done, attempts: attemptNumber, ...report };
		} catch (error) {
			const failure = throttled(options.signals, error, putAt) as EventPicsError;
			if (failure.facts.statusCode === 403) [address, refreshes] = [undefined, refreshes + 1];
			noteFailure(report, failure, sent.state, attemptNumber, file.size, policy.timeoutMs);
			throw failure;
		} finally {
			if (!Buffer.isBuffer(body) && !body.destroyed) body.destroy();
		}
	};
	const decide = (error: EventPicsError) => {
		if (error.facts.step === 'put' && error.facts.statusCode === 403)
			return refreshes <= MAX_REFRESHES ? 'now' : 'stop';
		return isTransient(error) ? 'retry' : 'stop';
	};
	return await withRetries(policy, attempt, decide).catch((error: unknown) => {
		if (!(error instanceof EventPicsError)) throw error;
		const facts = { ...error.facts, broken: report.brokenTransfers };
		throw facts.statusCode === 403 && facts.step === 'put'
			? new EventPicsError('putRefused', facts)
			: Object.assign(error, { facts });
	});
}
