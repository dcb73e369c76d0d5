import { sleep } from 'n8n-workflow';

import { AdaptiveLimiter } from './limiter';
import { RateGate } from './rateGate';

/**
 * The run's shared pacing: a wait for the learned request rate before each getuploadurl call, and
 * feedback for it and the concurrency limiter: every 429 (with when its call was sent), every good
 * answer (with the time getuploadurl took; none for the PUT).
 */
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
	limiter: AdaptiveLimiter;
	signals: RateSignals;
}

/**
 * One run's pacing: the limiter (uploads at once: `start` growing to `max`, see limiter.ts) and one
 * request rate for the whole run, learned from the 429s (rateGate.ts). The first 429 also pauses new
 * starts and halves the limiter; after that the gate's rate answers them. A pause is a wait too:
 * never longer than `maxWaitMs` (Max Total Wait).
 */
export function runPacing(concurrency: { max: number; start?: number }, maxWaitMs: number): Pacing {
	const limiter = new AdaptiveLimiter(concurrency.max, { start: concurrency.start });
	const gate = new RateGate({ now: Date.now, sleep });
	const signals: RateSignals = {
		paced: async () => await gate.take(),
		throttled: (retryAfterMs, sentAt) => {
			const ms = retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, maxWaitMs);
			if (gate.rate() === undefined) limiter.throttled(ms);
			gate.throttled(sentAt, ms);
		},
		succeeded: (signMs) => {
			gate.succeeded(signMs !== undefined);
			limiter.succeeded(signMs);
		},
	};
	return { limiter, signals };
}
