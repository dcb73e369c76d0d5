/** The clock the gate runs on: Date.now and n8n-workflow's sleep in the node, a hand-moved one in tests. */
export interface GateClock {
	now: () => number;
	sleep: (ms: number) => Promise<void>;
}

/** Share of the refused rate the gate goes back to after a 429. */
const BACK_OFF = 0.9;
/** How far above the refused rate the probe gets one climb time after it levelled off (share). */
const PROBE_GAIN = 0.3;
/** Calls, at the refused rate, that the climb back takes: about one 429 in this many calls. */
const PROBE_CALLS = 30;
/** Bounds of the climb back (ms), whatever PROBE_CALLS makes of the rate. */
const MIN_CLIMB_MS = 1000;
const MAX_CLIMB_MS = 5000;
/** Lowest rate, calls per second. */
const MIN_RATE = 0.5;
/** Longest window (ms) a Retry-After makes the gate count answers over. */
const MAX_WINDOW_MS = 10_000;
/** Window (ms) the send rate is measured over, to cap the probing. */
const SEND_WINDOW_MS = 2_000;

/**
 * A client-side request rate learned from 429s, shared by every upload of one run; modelled on the
 * AWS SDKs' adaptive retry mode (a token bucket whose rate follows a cubic curve, capped by the rate
 * really sent), with the ceiling measured instead of guessed.
 *
 * - Until the first 429 there is no gate: `take()` returns at once.
 * - The ceiling is what the service let through in the window its Retry-After names (at least 1 s,
 *   at most 10 s): the good answers to gated calls counted over that window. After the first 429
 *   the gate holds every call until that window has passed (the unpaced calls filled it), then goes
 *   on at the ceiling and soon probes above it (other calls may have shared the window).
 * - Each later 429 takes the lower of that measure and the current rate as the ceiling, drops to
 *   BACK_OFF times it and climbs back along a cubic curve: quickly at first, flat near the ceiling,
 *   then probing above it ever faster. The climb back takes about PROBE_CALLS calls (within 1-5 s),
 *   so about one call in PROBE_CALLS is refused at a steady limit, whatever the rate.
 * - A 429 to a call sent before the last back-off, or within the window after it, says nothing new
 *   (the service still counts the faster calls) and is ignored.
 * - The rate never probes above twice the rate really sent over the last 2 s, so a run that sends
 *   slowly for other reasons does not build up a rate it never tried.
 * - Calls go out one at a time, at least 1/rate apart, in the order they asked (no bursts); the
 *   rate is read anew before each, so a back-off also slows the calls already waiting.
 */
export class RateGate {
	private ceiling: number | undefined;

	private backedOffAt = 0;

	private firstClimb = false;

	private quietUntil = Number.NEGATIVE_INFINITY;

	private lastSentAt = Number.NEGATIVE_INFINITY;

	private readonly accepted: number[] = [];

	private readonly sent: number[] = [];

	private readonly waiters: Array<() => void> = [];

	private pumping = false;

	constructor(private readonly clock: GateClock) {}

	/** Calls per second the gate lets through now; undefined while no limit is known. */
	rate(): number | undefined {
		const { ceiling } = this;
		if (ceiling === undefined) return undefined;
		// x: climb times since the rate levelled off at the ceiling (-1 at the back-off)
		const climb = this.climbSeconds(ceiling);
		const x = ((this.clock.now() - this.backedOffAt) / 1000 - climb) / climb;
		const cubic = ceiling * (1 + (x < 0 ? 1 - BACK_OFF : PROBE_GAIN) * x ** 3);
		const cap = Math.max(ceiling, 2 * this.sendRate());
		return Math.max(MIN_RATE, Math.min(cubic, cap));
	}

	private climbSeconds(ceiling: number): number {
		// the first measure is a floor (other calls shared the window), so the first probe is quick
		if (this.firstClimb) return MIN_CLIMB_MS / 1000;
		return Math.min(MAX_CLIMB_MS, Math.max(MIN_CLIMB_MS, (1000 * PROBE_CALLS) / ceiling)) / 1000;
	}

	/** Waits until one more call may go out (at once while no limit is known). */
	async take(): Promise<void> {
		if (this.ceiling === undefined && this.waiters.length === 0) {
			this.markSent();
			return;
		}
		await new Promise<void>((resolve) => {
			this.waiters.push(resolve);
			if (!this.pumping) void this.pump();
		});
	}

	/** A good answer to a gated call. */
	succeeded(): void {
		const now = this.clock.now();
		this.accepted.push(now);
		prune(this.accepted, now - MAX_WINDOW_MS);
	}

	/** A 429 to a call sent at `sentAt`, with the service's Retry-After when it gave one. */
	throttled(sentAt: number, retryAfterMs: number | undefined): void {
		if (sentAt < this.quietUntil) return;
		const now = this.clock.now();
		const windowMs = Math.min(MAX_WINDOW_MS, Math.max(1000, retryAfterMs ?? 0));
		// what the service let through in the window it named: no more than that fits in it
		// (one call per window at least: the service asked to come back once it has passed)
		const granted = Math.max(1, countSince(this.accepted, now - windowMs)) / (windowMs / 1000);
		const first = this.ceiling === undefined;
		const ceiling = Math.max(MIN_RATE, first ? granted : Math.min(granted, this.rate()!));
		this.ceiling = ceiling;
		this.firstClimb = first;
		// The first time, go on at what was granted (a measure, not a guess) once the window that the
		// unpaced calls filled has passed; later, back off below it at once.
		this.backedOffAt = first ? now - 1000 * this.climbSeconds(ceiling) : now;
		if (first) this.lastSentAt = Math.max(this.lastSentAt, now + windowMs - 1000 / ceiling);
		this.quietUntil = now + windowMs;
	}

	private sendRate(): number {
		return countSince(this.sent, this.clock.now() - SEND_WINDOW_MS) / (SEND_WINDOW_MS / 1000);
	}

	private markSent(): void {
		const now = this.clock.now();
		this.lastSentAt = now;
		this.sent.push(now);
		prune(this.sent, now - SEND_WINDOW_MS);
	}

	/** Lets the waiters go one by one, each 1/rate after the last call; the rate is read anew each time. */
	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.waiters.length > 0) {
				const rate = this.rate();
				const wait = rate === undefined ? 0 : this.lastSentAt + 1000 / rate - this.clock.now();
				if (wait > 0) {
					await this.clock.sleep(wait);
					continue;
				}
				this.markSent();
				this.waiters.shift()!();
			}
		} finally {
			this.pumping = false;
		}
	}
}

/** Drops the times before `from` (the list is in time order). */
function prune(times: number[], from: number): void {
	let drop = 0;
	while (drop < times.length && times[drop] <= from) drop++;
	if (drop > 0) times.splice(0, drop);
}

function countSince(times: number[], from: number): number {
	let count = 0;
	for (let i = times.length - 1; i >= 0 && times[i] > from; i--) count++;
	return count;
}
