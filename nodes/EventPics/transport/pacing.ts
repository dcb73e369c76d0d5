import { sleep } from 'n8n-workflow';

/** The uploads' side: wait before each getuploadurl; tell each 429 and good answer (signMs: getuploadurl's). */
export type RateSignals = Pick<Pacer, 'paced' | 'throttled' | 'succeeded'>;

/** A file in the pool gets ready (is read, its address asked), then is sent: `current` of each at once. */
type Stage = 'ready' | 'send';

// An answer is slow above twice the fastest plus SLOW_MARGIN_MS; one step down per COOL_DOWN_MS.
const SLOW_MARGIN_MS = 50;
const COOL_DOWN_MS = 1000;
// After a 429 the level is LEVEL of what its window let through (the flat part stays under); the
// rate backs off to BACK_OFF of it and climbs back along a cubic over CLIMB_CALLS good calls; above
// the level the probe gains PROBE_GAIN one climb later, and at MAX_PROBE times it, it is the level.
const LEVEL = 0.98;
const BACK_OFF = 0.95;
const CLIMB_CALLS = 30;
const PROBE_GAIN = 0.3;
const MAX_PROBE = 2;
// The lowest rate (calls per second); the bounds (ms) of the window a 429 is measured over.
const MIN_RATE = 0.5;
const MIN_WINDOW_MS = 1000;
const MAX_WINDOW_MS = 10_000;
// A 429 without Retry-After is noise unless over NOISE_SHARE of the last ~NOISE_ANSWERS were 429s.
const NOISE_SHARE = 0.2;
const NOISE_ANSWERS = 50;

/**
 * One run's pacing. At once: `start` (default `max`, "Concurrent Uploads") files being sent, and as
 * many getting ready (read, their address asked) behind them; one more per good quick answer up to
 * `max`; after a 429 or a slow answer one more per run of good answers as long as the limit, and a
 * slow answer gives one back (never below `start`).
 * Rate: none until the first 429; then getuploadurl calls go one at a time, in call order, 1/rate
 * apart, after a pause for the window the first burst filled. A 429 measures the limit: what its
 * window (Retry-After, 1-10 s) let through before its call, at most the rate refused. The rate backs
 * off below that level and climbs back along a cubic curve counted in good calls, not seconds (about
 * one 429 in CLIMB_CALLS at a steady limit, whatever the rate). 429s to calls sent before the last
 * back-off say nothing new. No wait is longer than `maxWaitMs`.
 */
export class Pacer {
	readonly max: number;
	current: number;
	private readonly floor: number;
	private readonly active = { ready: 0, send: 0 };
	private waiters: Array<() => void> = [];
	private growing: boolean;
	private goodSinceGrowth = 0;
	private fastestMs = Number.POSITIVE_INFINITY;
	private lastStepDown = Number.NEGATIVE_INFINITY;
	private level: number | undefined; // where the climb levels off; undefined: no pacing
	private goodSinceCut = 0;
	private cutAt = Number.NEGATIVE_INFINITY;
	private heldUntil = Number.NEGATIVE_INFINITY;
	private lastSentAt = Number.NEGATIVE_INFINITY;
	private rateBound = false; // the last call waited for the rate
	private readonly accepted: number[] = []; // when the good getuploadurl calls were sent
	private refusedShare = 0; // of the answers, a moving average over about NOISE_ANSWERS
	private queue: Promise<void> = Promise.resolve();

	constructor(
		concurrency: { max: number; start?: number },
		private readonly maxWaitMs = Number.POSITIVE_INFINITY,
		private readonly clock = { now: () => Date.now(), sleep },
	) {
		this.max = Math.max(1, Math.floor(concurrency.max));
		this.current = Math.min(this.max, Math.max(1, Math.floor(concurrency.start ?? this.max)));
		this.floor = this.current;
		this.growing = this.current < this.max;
	}

	async acquire(stage: Stage): Promise<void> {
		while (this.active[stage] >= this.current)
			await new Promise<void>((wake) => this.waiters.push(wake));
		this.active[stage]++;
	}

	release(stage: Stage): void {
		this.active[stage]--;
		this.wakeAll();
	}

	/** Calls per second let through now; undefined while no limit is known. */
	rate(): number | undefined {
		if (this.level === undefined) return undefined;
		const x = (this.goodSinceCut - CLIMB_CALLS) / CLIMB_CALLS; // -1 at the back-off, 0 at the level
		const curve =
			x < 0 ? 1 + (1 - BACK_OFF) * x ** 3 : Math.min(MAX_PROBE, 1 + PROBE_GAIN * x ** 3);
		return Math.max(MIN_RATE, this.level * curve);
	}

	paced = async (): Promise<void> => {
		const deadline = this.clock.now() + this.maxWaitMs;
		const turn = this.queue.then(async () => await this.turn(deadline));
		this.queue = turn;
		await turn;
	};

	throttled = (retryAfterMs: number | undefined, sentAt: number): void => {
		const now = this.clock.now();
		this.growing = false;
		this.refusedShare += (1 - this.refusedShare) / NOISE_ANSWERS;
		if (sentAt < this.cutAt) return;
		// without Retry-After, a few 429s among many good answers come whatever the rate: a busy service
		if (retryAfterMs === undefined && this.refusedShare <= NOISE_SHARE) return;
		const windowMs = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, retryAfterMs ?? 0));
		const rate = this.rate();
		const first = rate === undefined;
		// what the window let through before this call (half a step more, for timing noise)
		const from = sentAt - windowMs - (first ? 0 : 500 / rate);
		const through = this.accepted.filter((at) => at > from && at <= sentAt).length;
		const measured = ((through + (first ? 1 : 0)) / (windowMs / 1000)) * LEVEL;
		// a later cut at most halves the rate: a window the pacer itself held nearly empty (1 call in
		// it) would otherwise set the level near 1/s for the rest of the run
		const floor = first ? MIN_RATE : Math.max(MIN_RATE, rate / 2);
		this.level = Math.max(floor, Math.min(measured, rate ?? measured));
		this.goodSinceCut = first ? CLIMB_CALLS : 0; // the first measure: no back-off
		this.cutAt = now;
		if (first)
			this.heldUntil = sentAt + Math.min(Math.max(windowMs, retryAfterMs ?? 0), this.maxWaitMs);
	};

	succeeded = (signMs?: number): void => {
		const now = this.clock.now();
		this.refusedShare -= this.refusedShare / NOISE_ANSWERS;
		if (signMs !== undefined) {
			this.accepted.push(now - signMs);
			while (this.accepted[0] <= now - MAX_WINDOW_MS) this.accepted.shift();
			this.goodSinceCut++;
			if (this.rateBound && this.level !== undefined && this.rate()! >= MAX_PROBE * this.level) {
				this.level *= MAX_PROBE;
				this.goodSinceCut = CLIMB_CALLS;
			}
			this.fastestMs = Math.min(this.fastestMs, signMs);
			if (signMs > 2 * this.fastestMs + SLOW_MARGIN_MS) {
				[this.growing, this.goodSinceGrowth] = [false, 0];
				if (now - this.lastStepDown < COOL_DOWN_MS || this.current <= this.floor) return;
				[this.current, this.lastStepDown] = [this.current - 1, now];
				return;
			}
		}
		if (this.current >= this.max) return;
		this.goodSinceGrowth++;
		if (this.growing || this.goodSinceGrowth >= this.current) {
			[this.current, this.goodSinceGrowth] = [this.current + 1, 0];
			this.wakeAll();
		}
	};

	/** Sleeps until the pause is over and a step has passed since the last call was due (late wake-ups do not add up). */
	private async turn(deadline: number): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const step = 1000 / (this.rate() ?? Number.POSITIVE_INFINITY); // 0: no pacing
			const until = Math.min(deadline, Math.max(this.heldUntil, this.lastSentAt + step));
			this.rateBound = step > 0 && until > now;
			if (until <= now) {
				this.lastSentAt = Math.max(until, now - step / 4);
				return;
			}
			await this.clock.sleep(until - now);
		}
	}

	private wakeAll(): void {
		for (const wake of this.waiters.splice(0)) wake();
	}
}

/**
 * Runs `work` for 0..count-1 in index order, `limiter.current` at once; `work` must not throw. Once
 * `sending()` returns, the file is one of those sent and the next one gets ready meanwhile, so a file's
 * address is asked while the one before it is still on its way.
 */
export async function runPool(
	count: number,
	limiter: Pacer,
	work: (i: number, sending: () => Promise<void>) => Promise<void>,
) {
	let next = 0;
	const worker = async () => {
		while (next < count) {
			await limiter.acquire('ready');
			const index = next++;
			let stage: Stage = 'ready';
			const sending = async () => {
				if (stage === 'send') return;
				await limiter.acquire('send');
				limiter.release('ready');
				stage = 'send';
			};
			try {
				if (index < count) await work(index, sending);
			} finally {
				limiter.release(stage);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(count, 2 * limiter.max) }, worker));
}
