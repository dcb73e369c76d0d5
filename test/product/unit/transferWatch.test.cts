import { shownDuration, watchTransfer } from '../../../nodes/EventPics/transport/watch';

/**
 * On jest's fake clock (timers and Date.now together): the watch checks on n8n-workflow's `sleep`,
 * a setTimeout, so each verdict and each time below is the same on a busy machine as on a quiet one.
 */
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Moves the clock on by `ms`, running the watch's checks on the way. */
const pass = (ms: number) => jest.advanceTimersByTimeAsync(ms);

/** The time (ms after the call) at which `signal` aborted, or undefined when it did not within `within`. */
async function abortedAfter(signal: AbortSignal, within: number): Promise<number | undefined> {
	if (signal.aborted) return 0;
	const started = Date.now();
	let at: number | undefined;
	signal.addEventListener('abort', () => (at = Date.now() - started));
	await pass(within);
	return at;
}

describe('watchTransfer: ends a transfer on the limit it broke, and says which', () => {
	it('a stall: nothing moved for stallMs (the first byte included)', async () => {
		const watch = watchTransfer({ stallMs: 200 });
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('stalled');
		// checked four times per limit: ended within a quarter of stallMs after it
		expect(at).toBeGreaterThanOrEqual(200);
		expect(at).toBeLessThanOrEqual(250);
	});

	it('bytes that keep moving keep it alive however long it runs; end() stops the watch', async () => {
		// a byte every 100 ms for 3 s, six times the stall limit
		const watch = watchTransfer({ stallMs: 500 });
		for (let i = 0; i < 30; i++) {
			await pass(100);
			watch.moved(1);
		}
		expect(watch.stopped).toBeUndefined();
		expect(watch.bytes).toBe(30);
		watch.end();
		expect(await abortedAfter(watch.signal, 5000)).toBeUndefined();
	});

	it('a drip below the minimum rate ends once stallMs has passed', async () => {
		const watch = watchTransfer({ stallMs: 200, minBytesPerSecond: 1000 });
		const started = Date.now();
		// 10 bytes every 50 ms: 200 bytes/s, never still for 200 ms
		for (let i = 0; i < 60 && !watch.signal.aborted; i++) {
			watch.moved(10);
			await pass(50);
		}
		expect(watch.stopped).toBe('tooSlow');
		// owed 1000 bytes/s after the first 200 ms: 10 + t/5 bytes fall behind (t - 200) at 263 ms
		expect(Date.now() - started).toBeGreaterThan(250);
		expect(Date.now() - started).toBeLessThanOrEqual(350);
	});

	it('a transfer at the minimum rate or above is never too slow', async () => {
		const watch = watchTransfer({ stallMs: 100, minBytesPerSecond: 1000 });
		for (let i = 0; i < 12; i++) {
			watch.moved(100); // 2000 bytes/s
			await pass(50);
		}
		expect(watch.stopped).toBeUndefined();
		watch.end();
		await pass(1000);
		expect(watch.stopped).toBeUndefined();
	});

	it('a deadline ends what cannot be watched, bytes or not', async () => {
		const watch = watchTransfer({ stallMs: Infinity, deadlineMs: 250 });
		watch.moved(5);
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('deadline');
		expect(at).toBeGreaterThanOrEqual(250);
		expect(at).toBeLessThan(250 + 250 / 4);
	});

	it('expectQuiet: bytes still on their way move the stall clock past them', async () => {
		const watch = watchTransfer({ stallMs: 150 });
		watch.expectQuiet(300);
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('stalled');
		expect(at).toBeGreaterThanOrEqual(450);
		expect(at).toBeLessThanOrEqual(450 + 150 / 4);
	});

	it('durations are shown in seconds, then minutes and seconds', () => {
		expect(shownDuration(2000)).toBe('2 s');
		expect(shownDuration(119_400)).toBe('119 s');
		expect(shownDuration(360_000)).toBe('6 min');
		expect(shownDuration(380_000)).toBe('6 min 20 s');
	});
});
