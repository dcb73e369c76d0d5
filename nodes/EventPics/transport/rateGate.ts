/** The clock the gate runs on: Date.now and n8n-workflow's sleep in the node, a hand-moved one in tests. */
interface GateClock {
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
/** Share of the answers in the window that may be 429s without the calls being over a limit. */
const NOISE_SHARE = 0.2;
/** Shortest time a young run's send rate is measured over (ms). */
const MIN_SPAN_MS = 20;
/** Longest window (ms) a Retry-After makes the gate count answers over. */
const MAX_WINDOW_MS = 10_000;
/** Window (ms) the send rate is measured over, to cap the probing. */
const SEND_WINDOW_MS = 2_000;

/**
 * A client-side request rate learned from 429s, shared by every upload of one run; modelled on the
 * AWS SDKs' adaptive retry mode (a token bucket whose rate follows a cubic curve, capped by the rate
 * really sent), with the ceiling measured where the service allows it.
 *
 * - Until the first 429 there is no gate: `take()` returns at once.
 * - The window is the one the 429's Retry-After names (1-10 s). There, what the service let through
 *   is the ceiling: a windowed limit lets no more through. A 429 without Retry-After names no
 *   window (1 s is used): only when over a fifth of the answers in it were 429s is that measure
 *   taken; otherwise the 429s may come whatever the rate (a busy service, not a limit), and the
 *   rate really sent is the ceiling: they then cost a little speed, never a spiral down.
 * - After a first measured 429 the gate holds every call until the window has passed (the unpaced
 *   calls filled it), goes on at the ceiling and soon probes above it (others may share the limit).
 * - Each later 429 takes the lower of its ceiling and the current rate, drops to BACK_OFF times it
 *   and climbs back along a cubic curve: quickly at first, flat near the ceiling, then probing above
 *   it ever faster. The climb back takes about PROBE_CALLS calls (within 1-5 s), so about one call
 *   in PROBE_CALLS is refused at a steady limit, whatever the rate.
 * - One back-off per climb: a 429 before the rate is back at the ceiling (or within the window)
 *   says nothing new (the service still counts the faster calls) and only counts as "refused".
 * - The rate never probes above twice the rate really sent over the last 2 s, so a run that sends
 *   slowly for other reasons does not build up a rate it never tried.
 * - Calls go out one at a time, at least 1/rate apart, in the order they asked (no bursts); the
 *   rate is read anew before each, so a back-off also slows the calls already waiting.
 */
export class RateGate {
	private ceiling: number | undefined;
	/** Where the cubic curve starts: one climb before it levels off at the ceiling. */
	private climbFrom = 0;
	private firstClimb = false;
	private quietUntil = Number.NEGATIVE_INFINITY;
	private lastSentAt = Number.NEGATIVE_INFINITY;
	private firstSentAt = Number.POSITIVE_INFINITY;
	/** Times of the gated calls sent and let through (the last MAX_WINDOW_MS). */
	private readonly sent: number[] = [];
	private readonly accepted: number[] = [];
	/** Times of the 429s and of all answers, to gated calls and to the calls that follow them. */
	private readonly refused: number[] = [];
	private readonly answered: number[] = [];
	private readonly waiters: Array<() => void> = [];
	private pumping = false;

	constructor(private readonly clock: GateClock) {}

	/** Calls per second the gate lets through now; undefined while no limit is known. */
	rate(): number | undefined {
		const { ceiling } = this;
		if (ceiling === undefined) return undefined;
		// x: climb times since the rate levelled off at the ceiling (-1 at the back-off)
		const climb = this.climbSeconds(ceiling);
		const x = ((this.clock.now() - this.climbFrom) / 1000 - climb) / climb;
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

	/** A good answer; `gated` false for a call that does not pass the gate (the PUT after one). */
	succeeded(gated = true): void {
		const now = this.clock.now();
		if (gated) record(this.accepted, now);
		record(this.answered, now);
	}

	/** A 429 to a call sent at `sentAt`, with the service's Retry-After when it gave one. */
	throttled(sentAt: number, retryAfterMs: number | undefined): void {
		const now = this.clock.now();
		record(this.refused, now);
		record(this.answered, now);
		if (sentAt < this.quietUntil) return;
		const first = this.ceiling === undefined;
		const windowMs = Math.min(MAX_WINDOW_MS, Math.max(1000, retryAfterMs ?? 0));
		const granted = countSince(this.accepted, now - windowMs);
		const refused = countSince(this.refused, now - windowMs);
		const sent = countSince(this.sent, now - windowMs);
		const answered = countSince(this.answered, now - windowMs);
		const measure = retryAfterMs !== undefined || refused > NOISE_SHARE * answered;
		// the rate sent: over the run's age (at least MIN_SPAN_MS) when it is younger than the window
		const spanMs = Math.max(MIN_SPAN_MS, Math.min(windowMs, now - this.firstSentAt));
		const ceiling = measure
			? Math.max(1, granted) / (windowMs / 1000)
			: Math.max(sent / (spanMs / 1000), this.ceiling ?? 0);
		this.ceiling = Math.max(MIN_RATE, first ? ceiling : Math.min(ceiling, this.rate()!));
		this.firstClimb = first;
		// the first time, go on at the ceiling (a measure, not a guess) with no back-off
		this.climbFrom = first ? now - 1000 * this.climbSeconds(this.ceiling) : now;
		if (first && measure)
			this.lastSentAt = Math.max(this.lastSentAt, now + windowMs - 1000 / this.ceiling);
		const quietMs = first ? (measure ? 2 * windowMs : 0) : 1000 * this.climbSeconds(this.ceiling);
		this.quietUntil = now + Math.max(windowMs, quietMs);
	}

	private sendRate(): number {
		return countSince(this.sent, this.clock.now() - SEND_WINDOW_MS) / (SEND_WINDOW_MS / 1000);
	}

	private markSent(): void {
		const now = this.clock.now();
		this.firstSentAt = Math.min(this.firstSentAt, now);
		this.lastSentAt = now;
		record(this.sent, now);
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

/** Adds a time to a list in time order, and drops the times older than MAX_WINDOW_MS. */
function record(times: number[], now: number): void {
	times.push(now);
	let drop = 0;
	while (drop < times.length && times[drop] <= now - MAX_WINDOW_MS) drop++;
	if (drop > 0) times.splice(0, drop);
}

function countSince(times: number[], from: number): number {
	let count = 0;
	for (let i = times.length - 1; i >= 0 && times[i] > from; i--) count++;
	return count;
}
