import { sleep } from 'n8n-workflow';

/**
 * How many uploads run at once, adapted to a rate limit nobody published: a 429 halves the limit
 * (at most once per cool-down) and pauses every new start until its Retry-After has passed; a run of
 * good answers as long as the limit raises it by one, up to the chosen maximum.
 */
export class AdaptiveLimiter {
	private active = 0;

	private waiters: Array<() => void> = [];

	private pausedUntil = 0;

	private lastDecrease = 0;

	private successesSinceChange = 0;

	current: number;

	/** Lowest limit reached, for the output and the benchmark. */
	lowest: number;

	constructor(
		readonly max: number,
		private readonly now: () => number = Date.now,
		private readonly coolDownMs = 1000,
	) {
		this.current = Math.max(1, Math.floor(max));
		this.lowest = this.current;
	}

	/** Waits for a free place (and for any pause to end), then takes it. */
	async acquire(): Promise<void> {
		for (;;) {
			const pause = this.pausedUntil - this.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.active < this.current) {
				this.active++;
				return;
			}
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
	}

	release(): void {
		this.active--;
		this.wakeAll();
	}

	/** A 429: fewer at once, and no new start before `retryAfterMs` (when the service said). */
	throttled(retryAfterMs: number | undefined): void {
		const now = this.now();
		if (retryAfterMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		if (now - this.lastDecrease >= this.coolDownMs) {
			this.current = Math.max(1, Math.floor(this.current / 2));
			this.lowest = Math.min(this.lowest, this.current);
			this.lastDecrease = now;
		}
		this.successesSinceChange = 0;
	}

	/** A good answer: after `current` of them in a row, one more at once. */
	succeeded(): void {
		this.successesSinceChange++;
		if (this.successesSinceChange >= this.current && this.current < this.max) {
			this.current++;
			this.successesSinceChange = 0;
			this.wakeAll();
		}
	}

	private wakeAll(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}
}

/**
 * Runs `work` for 0..count-1 with at most `limiter.current` at once, started in index order.
 * `work` must not throw: it records its own errors.
 */
export async function runPool(
	count: number,
	limiter: AdaptiveLimiter,
	work: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		for (;;) {
			if (next >= count) return;
			await limiter.acquire();
			if (next >= count) {
				limiter.release();
				return;
			}
			const index = next++;
			try {
				await work(index);
			} finally {
				limiter.release();
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(count, limiter.max) }, worker));
}
