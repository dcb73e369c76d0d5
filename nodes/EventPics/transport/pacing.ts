import { sleep } from 'n8n-workflow';

/** The uploads' side: wait before each getuploadurl, then tell each 429 and good answer (signMs: getuploadurl's). */
export interface RateSignals {
	paced: () => Promise<void>;
	throttled: (retryAfterMs: number | undefined, sentAt: number) => void;
	succeeded: (signMs?: number) => void;
}

export const NO_SIGNALS: RateSignals = {
	paced: async () => undefined,
	throttled: () => undefined,
	succeeded: () => undefined,
};

/** How many uploads of one run go at once, and at what request rate. */
export interface Pacing {
	limiter: Pacer;
	signals: RateSignals;
}

/** Date.now and n8n-workflow's sleep in the node; a hand-moved clock in tests. */
export interface PacingClock {
	now: () => number;
	sleep: (ms: number) => Promise<void>;
}

/** An answer is slow above twice the fastest plus this (ms); one step down per COOL_DOWN_MS at most. */
const SLOW_MARGIN_MS = 50;
const COOL_DOWN_MS = 1000;
/** The level after a 429: this share of what its window let through (the flat part stays under). */
const LEVEL = 0.98;
/** A 429 backs off to this share of the level; the cubic climb back takes CLIMB_CALLS good calls. */
const BACK_OFF = 0.95;
const CLIMB_CALLS = 30;
/** Above the level the probe gains this share one climb later; at MAX_PROBE times it, it is the level. */
const PROBE_GAIN = 0.3;
const MAX_PROBE = 2;
/** Lowest rate (calls per second); bounds of the window (ms) a 429 is measured over, its Retry-After. */
const MIN_RATE = 0.5;
const MIN_WINDOW_MS = 1000;
const MAX_WINDOW_MS = 10_000;
/** A 429 without Retry-After is noise unless over this share of the last NOISE_ANSWERS answers were 429s. */
const NOISE_SHARE = 0.2;
const NOISE_ANSWERS = 20;

/**
 * One run's pacing: how many uploads go at once, and how fast getuploadurl is called.
 *
 * At once: `start` (default `max`), plus one per good quick answer (about doubling per round trip)
 * up to `max` ("Concurrent Uploads"); after a 429 or a slow answer, one per run of good answers as
 * long as the limit. A slow answer also gives one back (never below `start`).
 *
 * Rate: none until the first 429. Then the calls go one at a time, in call order, 1/rate apart
 * (the rate read anew for each), after a pause for the window the first burst filled. A 429 measures
 * the limit: what its window (Retry-After, 1-10 s) let through before its call (plus the 429 the
 * first time: the burst began with the events list), at most the rate it was refused at. A windowed
 * limit, sliding or opened by a call, lets no more through. The rate backs off below that level and
 * climbs back along a cubic curve, quickly at first, flat near the level, then probing above it ever
 * faster. The climb counts good calls, not seconds: about one 429 in CLIMB_CALLS calls at a steady
 * limit, whatever the rate. 429s to calls sent before the last back-off say nothing new.
 *
 * Every wait is bounded by `maxWaitMs` (Max Total Wait): a call that waited that long goes.
 */
export class Pacer {
	readonly max: number;
	current: number;
	private readonly floor: number;
	private active = 0;
	private waiters: Array<() => void> = [];
	private growing: boolean;
	private goodSinceGrowth = 0;
	private fastestMs = Number.POSITIVE_INFINITY;
	private lastStepDown = Number.NEGATIVE_INFINITY;

	/** The rate the climb levels off at; undefined while no limit is known (no pacing). */
	private level: number | undefined;
	private goodSinceCut = 0;
	private cutAt = Number.NEGATIVE_INFINITY;
	private heldUntil = Number.NEGATIVE_INFINITY;
	private lastSentAt = Number.NEGATIVE_INFINITY;
	/** Whether the last call waited for the rate (then the calls come as fast as it lets them). */
	private rateBound = false;
	/** When the accepted getuploadurl calls of the last MAX_WINDOW_MS were sent. */
	private readonly accepted: number[] = [];
	/** The last NOISE_ANSWERS answers (getuploadurl and PUT), true for a 429. */
	private readonly recent: boolean[] = [];
	private queue: Promise<void> = Promise.resolve();

	constructor(
		concurrency: { max: number; start?: number },
		private readonly maxWaitMs = Number.POSITIVE_INFINITY,
		private readonly clock: PacingClock = { now: () => Date.now(), sleep },
	) {
		this.max = Math.max(1, Math.floor(concurrency.max));
		this.current = Math.min(this.max, Math.max(1, Math.floor(concurrency.start ?? this.max)));
		this.floor = this.current;
		this.growing = this.current < this.max;
	}

	/** Waits for a free place, then takes it. */
	async acquire(): Promise<void> {
		while (this.active >= this.current) await new Promise<void>((wake) => this.waiters.push(wake));
		this.active++;
	}

	release(): void {
		this.active--;
		this.wakeAll();
	}

	/** Calls per second let through now; undefined while no limit is known. */
	rate(): number | undefined {
		if (this.level === undefined) return undefined;
		// x: climbs since the rate got back to the level (-1 at the back-off)
		const x = (this.goodSinceCut - CLIMB_CALLS) / CLIMB_CALLS;
		const curve =
			x < 0 ? 1 + (1 - BACK_OFF) * x ** 3 : Math.min(MAX_PROBE, 1 + PROBE_GAIN * x ** 3);
		return Math.max(MIN_RATE, this.level * curve);
	}

	/** Waits until one more getuploadurl call may go out: in call order, 1/rate after the last. */
	paced = async (): Promise<void> => {
		const deadline = this.clock.now() + this.maxWaitMs;
		const turn = this.queue.then(async () => await this.turn(deadline));
		this.queue = turn;
		await turn;
	};

	throttled = (retryAfterMs: number | undefined, sentAt: number): void => {
		const now = this.clock.now();
		this.growing = false;
		this.answered(true);
		// sent before the last back-off: the service still counted the faster calls, nothing new
		if (sentAt < this.cutAt) return;
		const windowMs = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, retryAfterMs ?? 0));
		const rate = this.rate();
		const first = rate === undefined;
		// the calls let through in the window before this one (half a step more, for timing noise)
		const from = sentAt - windowMs - (first ? 0 : 500 / rate);
		const through = this.accepted.filter((at) => at > from && at <= sentAt).length;
		// without Retry-After, a few 429s among many good answers come whatever the rate: a busy service
		const refused = this.recent.filter(Boolean).length;
		if (retryAfterMs === undefined && refused <= NOISE_SHARE * NOISE_ANSWERS) return;
		// the first time, the burst that filled the window began with other calls (the events list)
		const measured = ((through + (first ? 1 : 0)) / (windowMs / 1000)) * LEVEL;
		this.level = Math.max(MIN_RATE, Math.min(measured, rate ?? measured));
		// the first time, go on at what the window let through (no back-off), once the burst's window passed
		this.goodSinceCut = first ? CLIMB_CALLS : 0;
		this.cutAt = now;
		if (first)
			this.heldUntil = now + Math.min(Math.max(windowMs, retryAfterMs ?? 0), this.maxWaitMs);
	};

	succeeded = (signMs?: number): void => {
		const now = this.clock.now();
		this.answered(false);
		if (signMs !== undefined) {
			record(this.accepted, now - signMs, now);
			this.goodSinceCut++;
			// probed up to MAX_PROBE times the level without a 429: that rate is the new level
			if (
				this.rateBound &&
				this.level !== undefined &&
				this.rate()! >= MAX_PROBE * this.level
			) {
				this.level *= MAX_PROBE;
				this.goodSinceCut = CLIMB_CALLS;
			}
			this.fastestMs = Math.min(this.fastestMs, signMs);
			if (signMs > 2 * this.fastestMs + SLOW_MARGIN_MS) {
				this.slowed(now);
				return;
			}
		}
		if (this.current >= this.max) return;
		this.goodSinceGrowth++;
		if (this.growing || this.goodSinceGrowth >= this.current) {
			this.current++;
			this.goodSinceGrowth = 0;
			this.wakeAll();
		}
	};

	private answered(refused: boolean): void {
		this.recent.push(refused);
		if (this.recent.length > NOISE_ANSWERS) this.recent.shift();
	}

	/** A slow answer: no more quick growth, and one place less (once per cool-down, not below the start). */
	private slowed(now: number): void {
		this.growing = false;
		this.goodSinceGrowth = 0;
		if (now - this.lastStepDown < COOL_DOWN_MS || this.current <= this.floor) return;
		this.current--;
		this.lastStepDown = now;
	}

	/**
	 * One call's turn: sleeps until the pause is over and 1/rate has passed (the rate read anew). The
	 * next turn counts from when this one was due, up to a quarter step back, so sleeps that wake late
	 * (a busy machine) do not slow the rate down.
	 */
	private async turn(deadline: number): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const rate = this.rate();
			const step = rate === undefined ? 0 : 1000 / rate;
			const due = Math.max(this.heldUntil, rate === undefined ? now : this.lastSentAt + step);
			const until = Math.min(due, deadline);
			this.rateBound = rate !== undefined && until > now;
			if (until <= now) {
				this.lastSentAt = Math.max(until, now - step / 4);
				return;
			}
			await this.clock.sleep(until - now);
		}
	}

	private wakeAll(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}
}

/** One run's pacing (see Pacer); every pause is bounded by `maxWaitMs` (Max Total Wait). */
export function runPacing(concurrency: { max: number; start?: number }, maxWaitMs: number): Pacing {
	const pacer = new Pacer(concurrency, maxWaitMs);
	return { limiter: pacer, signals: pacer };
}

/**
 * Runs `work` for 0..count-1 with at most `limiter.current` at once, started in index order.
 * `work` must not throw: it records its own errors. A Pacer nobody signals is a fixed limit.
 */
export async function runPool(
	count: number,
	limiter: Pacer,
	work: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) {
			await limiter.acquire();
			const index = next++;
			try {
				if (index < count) await work(index);
			} finally {
				limiter.release();
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(count, limiter.max) }, worker));
}

/** Adds a time to a list in time order, and drops the times older than MAX_WINDOW_MS before `now`. */
function record(times: number[], at: number, now: number): void {
	times.push(at);
	while (times.length > 0 && times[0] <= now - MAX_WINDOW_MS) times.shift();
}
