import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../../../nodes/EventPics/transport/retry';

describe('Retry-After', () => {
	const now = Date.UTC(2026, 10, 22, 12, 0, 0);
	it('reads delta seconds and HTTP dates', () => {
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter('0', now)).toBe(0);
		expect(parseRetryAfter(['2'], now)).toBe(2000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:05 GMT', now)).toBe(5000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 11:59:00 GMT', now)).toBe(0);
	});
	it('ignores what it cannot read', () => {
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter('', now)).toBeUndefined();
	});
});

describe('backoff', () => {
	it('doubles with jitter between half and all of the step, up to the cap', () => {
		const policy = DEFAULT_RETRY_POLICY;
		expect(backoffDelayMs(2, policy, undefined, () => 0)).toBe(250);
		expect(backoffDelayMs(2, policy, undefined, () => 1)).toBe(500);
		expect(backoffDelayMs(3, policy, undefined, () => 1)).toBe(1000);
		expect(backoffDelayMs(4, policy, undefined, () => 0.5)).toBe(1500);
		expect(backoffDelayMs(30, policy, undefined, () => 1)).toBe(policy.maxDelayMs);
	});
	it('follows Retry-After when the service gives it', () => {
		expect(backoffDelayMs(2, DEFAULT_RETRY_POLICY, 7000, () => 0)).toBe(7000);
	});
	it('backs off as without Retry-After when it asks for no wait: 0, -1 or a date already past', () => {
		const now = Date.UTC(2026, 10, 22, 12, 0, 0);
		for (const header of ['0', '-1', 'Sun, 22 Nov 2026 11:59:00 GMT']) {
			const asked = parseRetryAfter(header, now);
			expect({ header, delay: backoffDelayMs(2, DEFAULT_RETRY_POLICY, asked, () => 0) }).toEqual({ header, delay: 250 });
			expect({ header, delay: backoffDelayMs(4, DEFAULT_RETRY_POLICY, asked, () => 1) }).toEqual({ header, delay: 2000 });
		}
	});
});
