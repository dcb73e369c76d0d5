import { sleep } from 'n8n-workflow';

/** An answer counts as slow when it takes longer than twice the fastest one seen, plus this. */
const SLOW_MARGIN_MS = 50;

interface LimiterOptions {
	/** Uploads at once at the start; it grows to `max` while the answers stay good. Default `max`. */
	start?: number;
	now?: () => number;
	/** Shortest time between two reductions. */
	coolDownMs?: number;
}

/**
 * How many uploads run at once, adapted to a service whose limits nobody published.
 *
 * - It starts at `start` and, while every answer is good and quick, adds one place per good answer
 *   (about doubling per round trip) until `max`, the user's "Concurrent Uploads".
 * - A 429 halves the limit (at most once per cool-down), pauses every new start until its
 *   Retry-After has passed and ends the quick growth; after that a run of good answers as long as
 *   the limit adds one place.
 * - A slow answer (see SLOW_MARGIN_MS) ends the quick growth and takes one place away (at most once
 *   per cool-down), but never below `start`: slowness alone never makes the node slower than it
 *   starts.
 */
export class AdaptiveLimiter {
	private active = 0;

	private waiters: Array<() => void> = [];

	private pausedUntil = 0;

	private lastDecrease = Number.NEGATIVE_INFINITY;

	private successesSinceChange = 0;

	private growingFast: boolean;

	private fastestMs = Number.POSITIVE_INFINITY;

	private readonly floor: number;

	private readonly now: () => number;

	private readonly coolDownMs: number;

	readonly max: number;

	current: number;

	constructor(max: number, options: LimiterOptions = {}) {
		this.max = Math.max(1, Math.floor(max));
		this.now = options.now ?? Date.now;
		this.coolDownMs = options.coolDownMs ?? 1000;
		this.current = Math.min(this.max, Math.max(1, Math.floor(options.start ?? this.max)));
		this.floor = this.current;
		this.growingFast = this.current < this.max;
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
		if (retryAfterMs !== undefined)
			this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		this.growingFast = false;
		if (now - this.lastDecrease >= this.coolDownMs) {
			this.current = Math.max(1, Math.floor(this.current / 2));
			this.lastDecrease = now;
		}
		this.successesSinceChange = 0;
	}

	/**
	 * A good answer; `elapsedMs` is how long a small request (the upload address) took, to notice
	 * a service that slows down.
	 */
	succeeded(elapsedMs?: number): void {
		if (elapsedMs !== undefined) {
			this.fastestMs = Math.min(this.fastestMs, elapsedMs);
			if (elapsedMs > 2 * this.fastestMs + SLOW_MARGIN_MS) {
				this.slowed();
				return;
			}
		}
		if (this.current >= this.max) return;
		this.successesSinceChange++;
		if (this.growingFast || this.successesSinceChange >= this.current) {
			this.current += 1;
			this.successesSinceChange = 0;
			this.wakeAll();
		}
	}

	private slowed(): void {
		this.growingFast = false;
		this.successesSinceChange = 0;
		const now = this.now();
		if (now - this.lastDecrease < this.coolDownMs || this.current <= this.floor) return;
		this.current -= 1;
		this.lastDecrease = now;
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
