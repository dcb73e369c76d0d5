import { AdaptiveLimiter, runPool } from '../../../nodes/EventPics/transport/limiter';

/** A limiter on a hand-moved clock. */
function limiter(max: number, start?: number) {
	const clock = { now: 0 };
	const made = new AdaptiveLimiter(max, { start, now: () => clock.now, coolDownMs: 1000 });
	return { limiter: made, clock };
}

describe('AdaptiveLimiter', () => {
	it('starts at "start" and adds one place per quick good answer up to the cap', () => {
		const { limiter: l } = limiter(16, 4);
		expect(l.current).toBe(4);
		for (let i = 0; i < 4; i++) l.succeeded(50);
		expect(l.current).toBe(8);
		for (let i = 0; i < 20; i++) l.succeeded(52);
		expect(l.current).toBe(16);
	});

	it('never starts above the cap (Concurrent Uploads lower than the start)', () => {
		expect(limiter(2, 4).limiter.current).toBe(2);
		expect(limiter(1, 4).limiter.max).toBe(1);
	});

	it('halves on a 429 once per cool-down, then grows only by one per run of good answers', () => {
		const { limiter: l, clock } = limiter(16, 4);
		for (let i = 0; i < 12; i++) l.succeeded(50);
		expect(l.current).toBe(16);
		l.throttled(1000);
		l.throttled(1000);
		expect(l.current).toBe(8);
		clock.now = 1500;
		l.throttled(undefined);
		expect(l.current).toBe(4);
		for (let i = 0; i < 3; i++) l.succeeded(50);
		expect(l.current).toBe(4);
		l.succeeded(50);
		expect(l.current).toBe(5);
	});

	it('stops growing on a slow answer and steps down, but not below where it started', () => {
		const { limiter: l, clock } = limiter(16, 4);
		for (let i = 0; i < 4; i++) l.succeeded(50);
		expect(l.current).toBe(8);
		l.succeeded(400);
		expect(l.current).toBe(7);
		l.succeeded(400);
		expect(l.current).toBe(7);
		clock.now = 5000;
		for (let i = 0; i < 10; i++) {
			clock.now += 1000;
			l.succeeded(400);
		}
		expect(l.current).toBe(4);
		// quick answers grow it again, one per run as long as the limit
		for (let i = 0; i < 4; i++) l.succeeded(50);
		expect(l.current).toBe(5);
	});

	it('pauses every new start until the Retry-After has passed', async () => {
		const l = new AdaptiveLimiter(4, { start: 4 });
		l.throttled(150);
		const started = Date.now();
		await l.acquire();
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		l.release();
	});
});

describe('runPool', () => {
	it('runs every index once, never more at once than the limiter allows, and grows as answers come', async () => {
		const l = new AdaptiveLimiter(6, { start: 2 });
		let running = 0;
		const seen: number[] = [];
		const overlap: number[] = [];
		await runPool(40, l, async (index) => {
			running++;
			overlap.push(running);
			expect(running).toBeLessThanOrEqual(l.current);
			await new Promise((resolve) => setImmediate(resolve));
			l.succeeded(1);
			seen.push(index);
			running--;
		});
		expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
		expect(overlap[0]).toBe(1);
		expect(Math.max(...overlap)).toBe(6);
	});
});
