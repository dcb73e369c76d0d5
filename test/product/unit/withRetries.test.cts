import type { Failure } from '../../../nodes/EventPics/transport/errors';
import type { RetryPolicy } from '../../../nodes/EventPics/transport/retry';
import { withRetries } from '../../../nodes/EventPics/transport/retry';

const policy: RetryPolicy = { maxAttempts: 3, maxTotalWaitMs: 10_000, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 1000 };
const failure = (statusCode: number, retryAfterMs?: number): Failure => ({ step: 'put', statusCode, retryAfterMs, summary: 'x' });

describe('withRetries', () => {
	it('stops after Max Attempts of failures', async () => {
		const result = await withRetries(policy, async () => ({ failure: failure(500), retry: true }));
		expect(result).toMatchObject({ attempts: 3, failure: { statusCode: 500 } });
	});

	it('does not count 429s with Retry-After against Max Attempts', async () => {
		const answers = [failure(429, 5), failure(429, 5), failure(500), failure(429, 5), failure(500)];
		const result = await withRetries(policy, async (n) =>
			n <= answers.length ? { failure: answers[n - 1], retry: true } : { done: 'stored' },
		);
		expect(result).toMatchObject({ value: 'stored', attempts: 6 });
	});

	it('counts a 429 without Retry-After (or with 0)', async () => {
		const result = await withRetries(policy, async () => ({ failure: failure(429, 0), retry: true }));
		expect(result.attempts).toBe(3);
	});

	it('waits between the tries of a 429 with Retry-After 0 (no back-to-back retries)', async () => {
		const backingOff = { ...policy, maxAttempts: 8, baseDelayMs: 4, maxDelayMs: 8 };
		const result = await withRetries(backingOff, async () => ({ failure: failure(429, 0), retry: true }), () => 0);
		// 7 waits of half the step: 2, 4, then 4 each
		expect(result).toMatchObject({ attempts: 8, waitedMs: 2 + 4 * 6 });
	});

	it('ends a service that paces forever at 4 times Max Attempts, or at Max Total Wait', async () => {
		const endless = await withRetries(policy, async () => ({ failure: failure(429, 1), retry: true }));
		expect(endless.attempts).toBe(12);
		const slow = await withRetries({ ...policy, maxTotalWaitMs: 30 }, async () => ({ failure: failure(429, 20), retry: true }));
		expect(slow).toMatchObject({ attempts: 2, waitedMs: 20 });
	});

	it('never retries what is not retryable', async () => {
		const result = await withRetries(policy, async () => ({ failure: failure(400), retry: false }));
		expect(result.attempts).toBe(1);
	});
});
