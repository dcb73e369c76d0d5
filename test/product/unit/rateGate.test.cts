import { RateGate } from '../../../nodes/EventPics/transport/rateGate';

/** A hand-moved clock: `sleep` resolves when `advance` passes its time; nothing waits on real time. */
function handClock() {
	let now = 0;
	const timers: Array<{ at: number; wake: () => void }> = [];
	const sleeps: number[] = [];
	const settle = async () => {
		for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
	};
	return {
		clock: {
			now: () => now,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				await new Promise<void>((wake) => timers.push({ at: now + ms, wake }));
			},
		},
		sleeps,
		get now() {
			return now;
		},
		/** Moves the clock on by `ms`, waking every sleeper on the way at its own time. */
		async advance(ms: number) {
			const end = now + ms;
			for (;;) {
				await settle();
				timers.sort((a, b) => a.at - b.at);
				if (timers.length === 0 || timers[0].at > end) break;
				const timer = timers.shift()!;
				now = Math.max(now, timer.at);
				timer.wake();
			}
			now = end;
			await settle();
		},
	};
}

/** Starts `count` takes at once; returns the clock times at which each got through, in call order. */
function takeMany(gate: RateGate, hand: ReturnType<typeof handClock>, count: number) {
	const times: number[] = [];
	for (let i = 0; i < count; i++) void gate.take().then(() => (times[i] = hand.now));
	return times;
}

describe('RateGate', () => {
	it('lets every call through at once while no 429 was seen (no limit known, no gate)', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 200; i++) {
			await gate.take();
			gate.succeeded();
		}
		expect(gate.rate()).toBeUndefined();
		expect(hand.sleeps).toEqual([]);
	});

	it('takes the good answers of the Retry-After window as the rate at the first 429', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 7; i++) {
			await hand.advance(100);
			gate.succeeded();
		}
		// 7 good answers in the last second
		gate.throttled(hand.now, 1000);
		expect(gate.rate()).toBeCloseTo(7, 5);

		const longer = new RateGate(hand.clock);
		for (let i = 0; i < 6; i++) {
			await hand.advance(300);
			longer.succeeded();
		}
		// Retry-After 2 s: the 6 good answers of the last 2 s, over the 2 s asked for
		longer.throttled(hand.now, 2000);
		expect(longer.rate()).toBeCloseTo(3, 5);

		// nothing got through: one call per window
		const refused = new RateGate(hand.clock);
		refused.throttled(hand.now, 1000);
		expect(refused.rate()).toBeCloseTo(1, 5);

		// no Retry-After, and much less let through than sent: measured over 1 s as well
		const unnamed = new RateGate(hand.clock);
		for (let i = 0; i < 10; i++) await unnamed.take();
		for (let i = 0; i < 3; i++) unnamed.succeeded();
		unnamed.throttled(hand.now, undefined);
		expect(unnamed.rate()).toBeCloseTo(3, 5);
	});

	it('holds every call after the first 429 until its window has passed, then lets them go 1/rate apart in order', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 4; i++) gate.succeeded();
		gate.throttled(hand.now, 1000);
		const times = takeMany(gate, hand, 5);
		await hand.advance(999);
		expect(times.filter((t) => t !== undefined)).toEqual([]);
		await hand.advance(1);
		expect(times).toEqual([1000]);
		await hand.advance(1000);
		// 4 a second: every 250 ms, in the order they asked
		expect(times).toEqual([1000, 1250, 1500, 1750, 2000]);
	});

	it('backs off below the rate it was refused at, climbs back to it, then probes above', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 10; i++) gate.succeeded();
		gate.throttled(hand.now, 1000);
		// calls flow at the gate's rate (its probing is capped by what is really sent)
		let stop = false;
		const answered: number[] = [];
		const flow = async () => {
			while (!stop) {
				await gate.take();
				gate.succeeded();
				answered.push(hand.now);
			}
		};
		void flow();
		await hand.advance(2500);
		const before = gate.rate()!;
		expect(before).toBeGreaterThan(10);
		// refused now: the ceiling is the lower of what the last second let through and the rate
		const granted = answered.filter((t) => t > hand.now - 1000).length;
		gate.throttled(hand.now, 1000);
		const ceiling = Math.min(granted, before);
		expect(gate.rate()).toBeCloseTo(0.9 * ceiling, 5);
		// back at the ceiling after about 30 calls at it (within 1-5 s), then above it
		const climbMs = Math.min(5000, Math.max(1000, (30 / ceiling) * 1000));
		await hand.advance(climbMs);
		expect(gate.rate()).toBeCloseTo(ceiling, 5);
		await hand.advance(climbMs);
		expect(gate.rate()).toBeCloseTo(1.3 * ceiling, 5);
		stop = true;
		await hand.advance(1000);
	});

	it('backs off once per climb: a 429 before the rate is back at its ceiling says nothing new', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 8; i++) gate.succeeded();
		gate.throttled(hand.now, 1000);
		const rate = gate.rate();
		// after the first 429: its window and one more (the held calls fill it again)
		await hand.advance(1500);
		gate.throttled(-100, 1000);
		gate.throttled(hand.now, 1000);
		expect(gate.rate()).toBe(rate);
		await hand.advance(600);
		gate.throttled(hand.now, 1000);
		const backedOff = gate.rate()!;
		expect(backedOff).toBeLessThan(rate!);
		// later: one climb (30 calls at the ceiling, within 1-5 s), here 5 s at 1 call a second
		await hand.advance(4900);
		gate.throttled(hand.now, 1000);
		expect(gate.rate()).toBeGreaterThan(backedOff);
		await hand.advance(200);
		const climbed = gate.rate()!;
		gate.throttled(hand.now, 1000);
		expect(gate.rate()).toBeCloseTo(0.9 * climbed, 2);
	});

	it('does not probe above twice the rate really sent', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 5; i++) gate.succeeded();
		gate.throttled(hand.now, 1000);
		await hand.advance(60_000);
		// nothing sent for a minute: the rate stays at what was measured
		expect(gate.rate()).toBeCloseTo(5, 5);
	});

	it('reads the rate anew for calls already waiting: a back-off slows them too', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		for (let i = 0; i < 10; i++) gate.succeeded();
		gate.throttled(hand.now, 1000);
		const times = takeMany(gate, hand, 30);
		await hand.advance(2050);
		// held for the window, then 10 a second from 1000 ms on
		expect(times.filter((t) => t !== undefined)).toHaveLength(11);
		// refused, and no good answer in the last second: one call a second, backed off to 0.9
		gate.throttled(hand.now, 1000);
		expect(gate.rate()).toBeCloseTo(0.9, 5);
		await hand.advance(3000);
		const later = times.filter((t) => t !== undefined).slice(11);
		expect(later.length).toBeGreaterThanOrEqual(2);
		expect(later.length).toBeLessThanOrEqual(3);
		expect(later[0] - 2000).toBeGreaterThanOrEqual(1000);
		for (let i = 1; i < later.length; i++)
			expect(later[i] - later[i - 1]).toBeGreaterThanOrEqual(1000);
		await hand.advance(60_000);
		expect(times.filter((t) => t !== undefined)).toHaveLength(30);
	});

	it('429s that come whatever the rate (no Retry-After, nearly all let through) do not slow it down step by step', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		// 4 uploads, 10 ms per call; every 10th call is refused, without a Retry-After
		let calls = 0;
		let done = 0;
		const rates: number[] = [];
		const upload = async () => {
			while (done < 2000) {
				await gate.take();
				const sentAt = hand.now;
				await hand.clock.sleep(10);
				if (++calls % 10 === 0) {
					gate.throttled(sentAt, undefined);
					rates.push(gate.rate()!);
					await hand.clock.sleep(50);
				} else {
					gate.succeeded();
					done++;
				}
			}
		};
		const all = Promise.all(Array.from({ length: 4 }, upload));
		let finished = false;
		void all.then(() => (finished = true));
		while (!finished) await hand.advance(100);
		// the first 429 takes the rate sent as the ceiling; later ones never push it down for good
		expect(rates.length).toBeGreaterThan(100);
		expect(Math.min(...rates.slice(-50))).toBeGreaterThanOrEqual(0.8 * rates[0]);
		// about 2220 calls of 10 ms and 220 waits of 50 ms through 4 uploads: 8.3 s unpaced
		expect(hand.now).toBeLessThanOrEqual(9000);
	});

	it('against a steady 5 a second limit: few calls refused and the limit well used', async () => {
		const hand = handClock();
		const gate = new RateGate(hand.clock);
		// the service: at most 5 accepted calls in any second (a refused one is not counted)
		const stamps: number[] = [];
		const service = () => {
			while (stamps.length > 0 && stamps[0] <= hand.now - 1000) stamps.shift();
			if (stamps.length >= 5) return 429;
			stamps.push(hand.now);
			return 200;
		};
		let accepted = 0;
		let refused = 0;
		const calls = 300;
		let next = 0;
		// 8 uploads at once; a refused one waits its Retry-After (1 s) and asks again
		const upload = async () => {
			while (next < calls) {
				next++;
				for (;;) {
					await gate.take();
					const sentAt = hand.now;
					if (service() === 200) {
						accepted++;
						gate.succeeded();
						break;
					}
					refused++;
					gate.throttled(sentAt, 1000);
					await hand.clock.sleep(1000);
				}
			}
		};
		const done = Promise.all(Array.from({ length: 8 }, upload));
		let finished = false;
		void done.then(() => (finished = true));
		while (!finished) await hand.advance(100);
		expect(accepted).toBe(calls);
		// the startup burst (8 unpaced calls) plus about one in 30 afterwards
		expect(refused).toBeLessThanOrEqual(0.08 * (accepted + refused));
		// 300 calls at 5 a second take 60 s at best
		expect(hand.now).toBeLessThanOrEqual(1.08 * 60_000);
	});
});
