import { sleep } from 'n8n-workflow';

import type { RetryPolicy } from './retryPolicy';
import { backoffDelayMs, isRetryableNetworkCode, isRetryableStatus } from './retryPolicy';
import type { Failure } from './types';

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
