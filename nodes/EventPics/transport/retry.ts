import { sleep } from 'n8n-workflow';

import { headerValue } from '../helpers/text';
import type { Failure } from './errors';

export interface RetryPolicy {
	/** Tries of one request (or of one upload), the first included. */
	maxAttempts: number;
	/** Longest time spent waiting between tries, summed over all tries of one request. */
	maxTotalWaitMs: number;
	/** First backoff delay; doubled on each further try. */
	baseDelayMs: number;
	/** Longest single backoff delay when the service gave no Retry-After. */
	maxDelayMs: number;
	/**
	 * Deadline of each call to the service, in total (connect, answer, body), and longest stall of
	 * the PUT and of a download (no byte moving, no answer after the last one). Default 60 s: the
	 * service answers in well under a second, and S3-like storage itself drops a connection idle for
	 * about 20 s, so only what is stuck ends.
	 */
	timeoutMs: number;
	/** The setting that sets `timeoutMs`, as messages name it ("Timeout"); none where no setting does. */
	timeoutName?: string;
}

/** The limits of one call: its deadline, and the name of the setting behind it. */
export type CallLimit = Pick<RetryPolicy, 'timeoutMs' | 'timeoutName'>;

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
	maxAttempts: 8,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	timeoutMs: 60_000,
});

/**
 * The policy with the user's Max Attempts, Max Total Wait (Seconds) and Timeout (Seconds), where
 * given. The values must have been checked (helpers/numberOption.ts); this only converts them.
 * `timeoutName`: the caller's name for Timeout, said in messages.
 */
export function retryPolicyFrom(
	options: { maxAttempts?: number; maxTotalWaitSeconds?: number; timeoutSeconds?: number },
	timeoutName?: string,
): RetryPolicy {
	const defaults = DEFAULT_RETRY_POLICY;
	return {
		...defaults,
		maxAttempts: options.maxAttempts ?? defaults.maxAttempts,
		maxTotalWaitMs:
			options.maxTotalWaitSeconds === undefined
				? defaults.maxTotalWaitMs
				: options.maxTotalWaitSeconds * 1000,
		timeoutMs:
			options.timeoutSeconds === undefined ? defaults.timeoutMs : options.timeoutSeconds * 1000,
		timeoutName,
	};
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
	'DEADLINE_EXCEEDED',
	'STALLED',
	'TOO_SLOW',
	'UND_ERR_SOCKET',
]);

export function isRetryableStatus(statusCode: number): boolean {
	return RETRYABLE_STATUS.has(statusCode);
}

export function isRetryableNetworkCode(code: string | undefined): boolean {
	return code !== undefined && RETRYABLE_NETWORK_CODES.has(code);
}

const MAX_RETRY_AFTER_TEXT = 64;

/** Milliseconds asked for by a Retry-After header (delta seconds or an HTTP date), if readable. */
export function parseRetryAfter(value: unknown, nowMs: number): number | undefined {
	const text = headerValue(value);
	if (text === undefined || text.trim() === '') return undefined;
	const trimmed = text.trim();
	// delta seconds or an HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT"); anything longer is neither
	if (trimmed.length > MAX_RETRY_AFTER_TEXT) return undefined;
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/**
 * Delay before try number `nextAttempt` (2 for the first retry): the service's Retry-After when it
 * asks for a wait, otherwise exponential backoff with jitter (between half and all of the step).
 * `Retry-After: 0`, a negative one or a date already past ask for none: the backoff applies, so
 * they never give back-to-back retries.
 */
export function backoffDelayMs(
	nextAttempt: number,
	policy: RetryPolicy,
	retryAfterMs: number | undefined,
	random: () => number = Math.random,
): number {
	if (retryAfterMs !== undefined && retryAfterMs > 0) return retryAfterMs;
	const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, nextAttempt - 2));
	return Math.round(step / 2 + (random() * step) / 2);
}

export type AttemptOutcome<T> =
	{ done: T } | { failure: Failure; retry: boolean; waitFirst?: boolean };

export interface RetryResult<T> {
	value?: T;
	failure?: Failure;
	attempts: number;
	/** Time slept between tries, summed. */
	waitedMs: number;
	/** Wall time from the first try to the end, tries included. */
	elapsedMs: number;
	/** The service asked for a wait longer than what was left of Max Total Wait: the tries ended there. */
	waitRefused?: { askedMs: number; leftMs: number };
}

/** Whether a failure is worth another try: 408/429/5xx and answers lost on the way. */
export function isTransient(failure: Failure): boolean {
	if (failure.statusCode !== undefined) return isRetryableStatus(failure.statusCode);
	return isRetryableNetworkCode(failure.networkCode);
}

/**
 * Runs `attempt` until it is done, fails for good, or the policy's tries or total wait are used
 * up. Waits between tries with `sleep` from n8n-workflow (Retry-After first, else backoff).
 * `waitFirst: false` retries at once (for example with a fresh upload address).
 *
 * A 429 that says when to come back (Retry-After above 0) is the service pacing us, not a failure of
 * the file: it does not use up Max Attempts, only Max Total Wait (and at most 4 times Max Attempts
 * tries in all, so a service that keeps refusing still ends). A Retry-After longer than what is left
 * of Max Total Wait ends the tries at once, without waiting (`waitRefused` says so).
 */
export async function withRetries<T>(
	policy: RetryPolicy,
	attempt: (attemptNumber: number) => Promise<AttemptOutcome<T>>,
	random: () => number = Math.random,
): Promise<RetryResult<T>> {
	const startedAt = Date.now();
	let waitedMs = 0;
	let counted = 0;
	for (let attemptNumber = 1; ; attemptNumber++) {
		const outcome = await attempt(attemptNumber);
		const ended = { attempts: attemptNumber, waitedMs, elapsedMs: Date.now() - startedAt };
		if ('done' in outcome) return { value: outcome.done, ...ended };
		const { failure } = outcome;
		const paced = failure.statusCode === 429 && (failure.retryAfterMs ?? 0) > 0;
		if (!paced) counted++;
		if (
			!outcome.retry ||
			counted >= policy.maxAttempts ||
			attemptNumber >= policy.maxAttempts * 4
		) {
			return { failure, ...ended };
		}
		const delay =
			outcome.waitFirst === false
				? 0
				: backoffDelayMs(attemptNumber + 1, policy, failure.retryAfterMs, random);
		if (waitedMs + delay > policy.maxTotalWaitMs) {
			const leftMs = Math.max(0, policy.maxTotalWaitMs - waitedMs);
			const asked = failure.retryAfterMs !== undefined && outcome.waitFirst !== false;
			return { failure, ...ended, ...(asked ? { waitRefused: { askedMs: delay, leftMs } } : {}) };
		}
		if (delay > 0) await sleep(delay);
		waitedMs += delay;
	}
}
