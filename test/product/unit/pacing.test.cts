import { Pacer, runPool } from '../../../nodes/EventPics/transport/pacing';
import { prng } from './prng.cts';

/** A hand-moved clock: `sleep` resolves when the clock gets to its time; nothing waits on real time. */
function handClock() {
	let now = 0;
	const timers: Array<{ at: number; wake: () => void }> = [];
	const sleeps: number[] = [];
	const settle = async () => {
		for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
	};
	return {
		now: () => now,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			await new Promise<void>((wake) => timers.push({ at: now + Math.max(0, ms), wake }));
		},
		sleeps,
		/** Runs the timers in time order until `work` has ended; returns its value. */
		async run<T>(work: Promise<T>): Promise<T> {
			let done = false;
			void work.finally(() => (done = true));
			for (;;) {
				await settle();
				if (done) return await work;
				timers.sort((a, b) => a.at - b.at);
				const timer = timers.shift();
				if (!timer) throw new Error('nothing left to wake, and the work has not ended');
				now = Math.max(now, timer.at);
				timer.wake();
			}
		},
	};
}

type Clock = ReturnType<typeof handClock>;

/** At most `limit` let through in any second (refused calls do not count). */
function slidingWindow(limit: number) {
	const stamps: number[] = [];
	return (at: number) => {
		while (stamps.length > 0 && stamps[0] <= at - 1000) stamps.shift();
		if (stamps.length >= limit) return false;
		stamps.push(at);
		return true;
	};
}

/** A window opens with the first call after the last one closed and lets `limit` through for a second. */
function fixedWindow(limit: number) {
	let openedAt = Number.NEGATIVE_INFINITY;
	let count = 0;
	return (at: number) => {
		if (at >= openedAt + 1000) [openedAt, count] = [at, 0];
		if (count >= limit) return false;
		count++;
		return true;
	};
}

/**
 * `files` uploads as the node runs them (transport/upload.ts): per file a paced
 * getuploadurl (a 429 answers Retry-After: 1, waited out by the file) and then the PUT, which the
 * limit does not count. Requests take 2-20 ms each way; the events list counts once at the start.
 */
async function uploadRun(
	clock: Clock,
	files: number,
	service: (at: number) => boolean,
	options: { noRetryAfter?: boolean; lateMs?: number } = {},
) {
	const retryAfterMs = options.noRetryAfter ? undefined : 1000;
	const random = prng(files);
	// a busy machine wakes the pacer's sleeps late, by up to lateMs
	const late = {
		now: clock.now,
		sleep: async (ms: number) => await clock.sleep(ms + (options.lateMs ?? 0) * random()),
	};
	const pacer = new Pacer({ max: 64, start: 4 }, 120_000, late);
	const way = () => 2 + Math.floor(18 * random());
	const run = { calls: 0, refused: 0, atOnce: 0, mostAtOnce: 0, rates: [] as number[] };
	service(0);
	const upload = async () => {
		run.mostAtOnce = Math.max(run.mostAtOnce, ++run.atOnce);
		for (;;) {
			await pacer.paced();
			const sentAt = clock.now();
			run.calls++;
			await clock.sleep(way());
			const ok = service(clock.now());
			await clock.sleep(way());
			if (ok) {
				pacer.succeeded(clock.now() - sentAt);
				break;
			}
			run.refused++;
			pacer.throttled(retryAfterMs, sentAt);
			run.rates.push(pacer.rate() ?? Number.POSITIVE_INFINITY);
			await clock.sleep(retryAfterMs ?? 500);
		}
		await clock.sleep(way() + way());
		pacer.succeeded();
		run.atOnce--;
	};
	await clock.run(runPool(files, pacer, upload));
	return { ...run, ms: clock.now(), share: run.refused / run.calls, pacer };
}

describe('Pacer: the request rate under a limit (simulated on a hand-moved clock)', () => {
	it.each([
		['a sliding window', 5, 0, slidingWindow],
		['a sliding window', 2, 0, slidingWindow],
		['a sliding window', 20, 0, slidingWindow],
		['a fixed window', 5, 0, fixedWindow],
		['a fixed window', 2, 0, fixedWindow],
		['a sliding window', 5, 30, slidingWindow],
		['a fixed window', 5, 30, fixedWindow],
		['a fixed window', 2, 30, fixedWindow],
	])(
		'%s of %d a second, sleeps up to %d ms late: every file once, at most 10 %% of the calls refused, at most 1.10 x the ideal time',
		async (_, limit, lateMs, model) => {
			const files = 40 * limit;
			const run = await uploadRun(handClock(), files, model(limit), { lateMs });
			expect(run.calls - run.refused).toBe(files);
			expect(run.share).toBeLessThanOrEqual(0.1);
			// the events list and every file's getuploadurl at the limit
			expect(run.ms).toBeLessThanOrEqual(1.1 * ((files + 1) / limit) * 1000);
		},
	);

	it('no limit: no call waits, and the uploads grow from 4 at once to the cap', async () => {
		const clock = handClock();
		const run = await uploadRun(clock, 400, () => true);
		expect(run.refused).toBe(0);
		expect(run.pacer.rate()).toBeUndefined();
		expect(run.pacer.current).toBe(64);
		expect(run.mostAtOnce).toBe(64);
		expect(clock.sleeps.every((ms) => ms <= 40)).toBe(true);
	});

	it('429s without Retry-After among many good answers (a busy service) do not slow it down step by step', async () => {
		const random = prng(7);
		const run = await uploadRun(handClock(), 2000, () => random() >= 0.08, { noRetryAfter: true });
		expect(run.refused).toBeGreaterThan(100);
		expect(run.rates.every((rate) => rate === Number.POSITIVE_INFINITY)).toBe(true);
		// 2000 files through 64 at once, each refused one waiting 500 ms: about 4.5 s
	});

	it('429s without Retry-After that refuse most calls are a limit all the same', async () => {
		const run = await uploadRun(handClock(), 100, slidingWindow(5), { noRetryAfter: true });
		// it cannot tell a limit from noise until a fifth of the answers are 429s: more are refused
		expect(run.pacer.rate()).toBeLessThan(6);
		expect(run.share).toBeLessThanOrEqual(0.25);
		expect(run.ms).toBeLessThanOrEqual(1.2 * (101 / 5) * 1000);
	});
});

describe('Pacer: a later 429 measures a window the pacer may have held', () => {
	it('at most halves the rate, even when that window holds no accepted call', async () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 64 }, 120_000, clock);
		for (let i = 0; i < 40; i++) pacer.succeeded(5);
		pacer.throttled(1000, 0);
		// the first measure: the 40 let through and this one, a shade under
		expect(pacer.rate()).toBeCloseTo(40.2, 1);
		await clock.run(clock.sleep(5000));
		// five seconds without a good answer (the calls were held, or failed otherwise), then a 429
		pacer.throttled(1000, clock.now());
		// half the rate, then the usual back-off below it; not the 0.5 a second an empty window says
		expect(pacer.rate()).toBeCloseTo((40.18 / 2) * 0.95, 1);
	});
});

describe('Pacer: the pauses', () => {
	/** When each of `count` calls that ask at once is let through. */
	const pacedTimes = async (clock: Clock, pacer: Pacer, count: number) => {
		const times: number[] = [];
		const call = async (index: number) => {
			await pacer.paced();
			times[index] = clock.now();
		};
		await clock.run(Promise.all(Array.from({ length: count }, (_, index) => call(index))));
		return times;
	};

	it('the first 429 holds every call for its window, then lets them go 1/rate apart in call order', async () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 8 }, 120_000, clock);
		for (let i = 0; i < 4; i++) pacer.succeeded(5);
		clock.sleeps.length = 0;
		pacer.throttled(1000, 0);
		// 4 let through and this one: 5 a second, a shade under it as the level
		expect(pacer.rate()).toBeCloseTo(4.9);
		const times = await pacedTimes(clock, pacer, 4);
		expect(times[0]).toBe(1000);
		expect(times.slice(1).map((at, i) => Math.round(at - times[i]))).toEqual([204, 204, 204]);
	});

	it('never pauses longer than Max Total Wait, whatever the Retry-After or the rate', async () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 8 }, 3000, clock);
		pacer.throttled(60_000, 0);
		expect(pacer.rate()).toBe(0.5);
		const times = await pacedTimes(clock, pacer, 6);
		// every call waited at most 3 s from when it asked (the rate alone would space them 2 s apart)
		expect(Math.max(...times)).toBeLessThanOrEqual(3000);
		expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(3000);
	});

	it('a 429 to a call sent before the last back-off does not back off again', () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 8 }, 120_000, clock);
		for (let i = 0; i < 5; i++) pacer.succeeded(5);
		pacer.throttled(1000, 0);
		const level = pacer.rate();
		pacer.throttled(1000, -1);
		expect(pacer.rate()).toBe(level);
	});
});

describe('Pacer: uploads at once', () => {
	const answers = (pacer: Pacer, count: number, ms?: number) => {
		for (let i = 0; i < count; i++) pacer.succeeded(ms);
	};

	it('starts at "start" and adds one place per quick good answer up to the cap', () => {
		const pacer = new Pacer({ max: 16, start: 4 }, 0, handClock());
		expect(pacer.current).toBe(4);
		answers(pacer, 4, 50);
		expect(pacer.current).toBe(8);
		answers(pacer, 20, 52);
		expect(pacer.current).toBe(16);
	});

	it('never starts above the cap; without a start, runs the cap from the first file', () => {
		expect(new Pacer({ max: 2, start: 4 }).current).toBe(2);
		expect(new Pacer({ max: 0 }).max).toBe(1);
		expect(new Pacer({ max: 5 }).current).toBe(5);
	});

	it('after a 429, grows by one per run of good answers as long as the limit', () => {
		const pacer = new Pacer({ max: 16, start: 4 }, 0, handClock());
		pacer.throttled(1000, 0);
		answers(pacer, 3);
		expect(pacer.current).toBe(4);
		answers(pacer, 1);
		expect(pacer.current).toBe(5);
	});

	it('a slow answer ends the growth and takes a place away once per second, never below the start', () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 16, start: 4 }, 0, clock);
		answers(pacer, 4, 50);
		expect(pacer.current).toBe(8);
		answers(pacer, 2, 400);
		expect(pacer.current).toBe(7);
		void clock.sleep(5000);
		return clock.run(
			(async () => {
				for (let i = 0; i < 10; i++) {
					await clock.sleep(1000);
					pacer.succeeded(400);
				}
				expect(pacer.current).toBe(4);
				answers(pacer, 4, 50);
				expect(pacer.current).toBe(5);
			})(),
		);
	});

	it('runPool: at most "current" at once, started in index order; a Pacer nobody signals is a fixed limit', async () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 3 }, 0, clock);
		const started: number[] = [];
		let atOnce = 0;
		let most = 0;
		await clock.run(
			runPool(20, pacer, async (index) => {
				started.push(index);
				most = Math.max(most, ++atOnce);
				await clock.sleep(10 + (index % 3));
				atOnce--;
			}),
		);
		expect(started).toEqual(Array.from({ length: 20 }, (_, index) => index));
		expect(most).toBe(3);
	});

	it('runPool: once a file is sent, the next gets ready beside it: "current" getting ready, "current" sent', async () => {
		const clock = handClock();
		const pacer = new Pacer({ max: 3 }, 0, clock);
		const atOnce = { ready: 0, send: 0, both: 0 };
		const most = { ready: 0, send: 0, both: 0 };
		const count = (stage: keyof typeof atOnce, change: number) => {
			atOnce[stage] += change;
			atOnce.both += change;
			most[stage] = Math.max(most[stage], atOnce[stage]);
			most.both = Math.max(most.both, atOnce.both);
		};
		await clock.run(
			runPool(20, pacer, async (index, sending) => {
				count('ready', 1);
				await clock.sleep(5);
				count('ready', -1);
				await sending();
				await sending(); // a second call (a retry) keeps its place
				count('send', 1);
				await clock.sleep(20 + (index % 3));
				count('send', -1);
			}),
		);
		expect(most).toEqual({ ready: 3, send: 3, both: 6 });
	});
});
