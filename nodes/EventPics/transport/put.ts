import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { shownSize } from '../helpers/size';
import type { AnswerStream, EventPicsContext, HttpAnswer, Result } from './request';
import { readAnswer, callerWith, withCancel } from './request';
import { networkFailure, stepLabel, tooLargeFailure } from './errors';
import type { TransferWatch } from './watch';
import { shownDuration, SLOWEST_LINK_BYTES_PER_SECOND, watchTransfer } from './watch';
import type { Failure } from './errors';
import type { BinaryStream, UploadBody } from './upload';

interface PutRequest {
	url: string;
	body: UploadBody;
	contentType: string;
	size: number;
	/** Longest time without a byte moving, and the name of the setting behind it. */
	timeoutMs: number;
	timeoutName?: string;
}

export interface PutTry {
	result: Result<HttpAnswer>;
	/** Bytes of the file the request took (a body held in memory: all of them, at once). */
	sentBytes: number;
	/** The whole file went out. */
	bodySent: boolean;
	/** Why a try that got no answer ended, in a few words. */
	cause?: string;
}

/** Largest answer of the storage to a PUT read (an S3 error document is a few hundred bytes). */
const MAX_PUT_ANSWER_BYTES = 64 * 1024;

export function isStream(body: UploadBody): body is BinaryStream {
	return !Buffer.isBuffer(body);
}

/** The failure of a PUT that a limit of the watch ended: which limit, after how much. */
function watchFailure(
	watch: TransferWatch,
	put: PutRequest,
	sent: { bytes: number; whole: boolean },
	answering: boolean,
): Failure {
	const label = stepLabel('put');
	const timeout = `${shownDuration(put.timeoutMs)}${put.timeoutName ? ` (${put.timeoutName})` : ''}`;
	if (watch.stopped === 'deadline') {
		const allowed = shownDuration(
			put.timeoutMs + (put.size / SLOWEST_LINK_BYTES_PER_SECOND) * 1000,
		);
		return {
			step: 'put',
			networkCode: 'TOO_SLOW',
			summary: `${label} did not finish within ${allowed}: ${put.timeoutName ?? 'the stall limit'} plus the time its ${shownSize(put.size)} take at 256 kbit/s. n8n holds this file in memory, where the node cannot see its bytes leave, so this is its limit instead of a stall.`,
		};
	}
	if (answering) {
		return {
			step: 'put',
			networkCode: 'STALLED',
			summary: `${label} sent all ${shownSize(put.size)} and the storage began to answer, but its answer did not end within ${timeout}, so the node stopped waiting.`,
		};
	}
	const summary = sent.whole
		? `${label} sent all ${shownSize(put.size)}, then no answer came within ${timeout} of the time its last bytes could arrive, so the node stopped waiting.`
		: `${label} stalled: no data moved for ${timeout} after ${shownSize(sent.bytes)} of ${shownSize(put.size)} had been sent, so the node stopped it.`;
	return { step: 'put', networkCode: 'STALLED', summary };
}

/**
 * How long the bytes of a body that has ended still need to reach the storage. The request takes
 * the body as fast as the connection's buffers let it, which on a slow link is that link's rate; the
 * buffers then hold what was taken beyond it. So: the rate of the last seconds, and the bytes taken
 * beyond that rate since the first one (never more than they need at the slowest link).
 */
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
		onTheWayMs: (bytes: number): number => {
			const now = Date.now();
			const first = samples[0];
			const recent = samples.find((sample) => now - sample.at <= 5000);
			if (!first || !recent || now - recent.at < 500) return 0;
			const rate = (bytes - recent.bytes) / (now - recent.at);
			const beyond = bytes - first.bytes - rate * (now - first.at);
			if (rate <= 0 || beyond <= 0) return 0;
			return Math.min(beyond / rate, (beyond / SLOWEST_LINK_BYTES_PER_SECOND) * 1000);
		},
	};
}

function causeOf(watch: TransferWatch, put: PutRequest, failure: Failure, bodySent: boolean) {
	const timeout = shownDuration(put.timeoutMs);
	if (watch.stopped === 'stalled')
		return bodySent
			? `no answer came within ${timeout} of its last bytes`
			: `no data moved for ${timeout}`;
	if (watch.stopped) return 'it took too long';
	if (failure.tooLarge) return 'the storage answered with too much';
	return `the connection broke (${failure.networkCode ?? 'no answer'})`;
}

/** What a PUT's body has done so far: bytes taken by the request, and whether all of them went. */
interface SentState {
	bytes: number;
	whole: boolean;
}

/**
 * The watch of one PUT: a stall timeout over a streamed body, whose bytes it counts as the request
 * takes them; a deadline for a body held in memory (see sendPut).
 */
function watchPut(put: PutRequest): { watch: TransferWatch; sent: SentState } {
	const { body } = put;
	if (!isStream(body)) {
		const deadlineMs = put.timeoutMs + (put.size / SLOWEST_LINK_BYTES_PER_SECOND) * 1000;
		return {
			watch: watchTransfer({ stallMs: Infinity, deadlineMs }),
			sent: { bytes: put.size, whole: true },
		};
	}
	const watch = watchTransfer({ stallMs: put.timeoutMs });
	const sent: SentState = { bytes: 0, whole: false };
	// counted as the request takes them; paused until n8n pipes it, so no byte goes elsewhere
	const probe = rateProbe();
	body.on('data', (chunk: Buffer) => {
		sent.bytes += chunk.length;
		watch.moved(chunk.length);
		probe.add(sent.bytes);
	});
	body.once('end', () => {
		sent.whole = true;
		// the answer is due Timeout after the last bytes can have arrived
		watch.expectQuiet(probe.onTheWayMs(sent.bytes));
	});
	body.pause();
	return { watch, sent };
}

/** The PUT itself through n8n's request helper: no redirect followed, the answer as a stream. */
async function request(ctx: EventPicsContext, put: PutRequest, signal: AbortSignal) {
	return (await ctx.helpers.httpRequest.call(callerWith(ctx, signal), {
		method: 'PUT',
		url: put.url,
		body: put.body as Buffer,
		headers: { 'Content-Type': put.contentType, 'Content-Length': String(put.size) },
		disableFollowRedirect: true,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		abortSignal: signal,
	})) as IN8nHttpFullResponse;
}

/**
 * One PUT of a file, ended only by a stall: no byte of the file moving for Timeout, nor of the
 * answer, and no answer for Timeout after the last byte, however long a moving transfer takes. A body
 * held in memory cannot be watched (n8n writes it to the connection in one go): it gets Timeout plus
 * its size at SLOWEST_LINK_BYTES_PER_SECOND. n8n's own `timeout` is not used: it runs until the
 * answer's headers, so it would bound the whole body. The body is its owner's to close.
 */
export async function sendPut(ctx: EventPicsContext, put: PutRequest): Promise<PutTry> {
	const { watch, sent } = watchPut(put);
	const signal = withCancel(ctx, watch.signal);
	let answering = false;
	const ended = (failure: Failure): PutTry => ({
		result: { ok: false, failure },
		sentBytes: sent.bytes,
		bodySent: sent.whole,
		cause: causeOf(watch, put, failure, sent.whole),
	});
	const stoppedOr = (error: unknown) =>
		ended(
			watch.stopped
				? watchFailure(watch, put, { ...sent }, answering)
				: networkFailure('put', error),
		);
	try {
		let response: IN8nHttpFullResponse;
		try {
			response = await request(ctx, put, signal);
		} catch (error) {
			return stoppedOr(error);
		}
		const { statusCode } = response;
		const stream = response.body as AnswerStream;
		// the answer has Timeout from its headers to its end: its bytes do not restart the clock, so a
		// storage that sends headers and then a byte now and then cannot hold the node
		watch.moved(0);
		answering = true;
		const read = await readAnswer(stream, MAX_PUT_ANSWER_BYTES, signal);
		if (!read.ok) {
			if (read.reason === 'tooLarge')
				return ended(tooLargeFailure('put', statusCode, MAX_PUT_ANSWER_BYTES));
			return stoppedOr(read.error);
		}
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const answer = { statusCode, headers, body: read.bytes.toString('utf8') };
		return { result: { ok: true, value: answer }, sentBytes: sent.bytes, bodySent: sent.whole };
	} finally {
		watch.end();
	}
}
