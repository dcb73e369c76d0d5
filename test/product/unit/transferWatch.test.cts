import {
	shownDuration,
	watchTransfer,
} from '../../../nodes/EventPics/transport/transferWatch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the time (ms after the call) at which `signal` aborted, or undefined after `within`. */
function abortedAfter(signal: AbortSignal, within: number): Promise<number | undefined> {
	const started = Date.now();
	return new Promise((resolve) => {
		if (signal.aborted) return resolve(0);
		const timer = setTimeout(() => resolve(undefined), within);
		signal.addEventListener('abort', () => {
			clearTimeout(timer);
			resolve(Date.now() - started);
		});
	});
}

describe('watchTransfer: ends a transfer on the limit it broke, and says which', () => {
	it('a stall: nothing moved for stallMs (the first byte included)', async () => {
		const watch = watchTransfer({ stallMs: 200 });
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('stalled');
		expect(at).toBeGreaterThanOrEqual(195);
		expect(at).toBeLessThan(1200);
	});

	it('bytes that keep moving keep it alive however long it runs; end() stops the watch', async () => {
		// a byte every 100 ms for 3 s, six times the stall limit (wide margins: a loaded machine delays timers)
		const watch = watchTransfer({ stallMs: 500 });
		for (let i = 0; i < 30; i++) {
			await sleep(100);
			watch.moved(1);
		}
		expect(watch.stopped).toBeUndefined();
		expect(watch.bytes).toBe(30);
		watch.end();
		expect(await abortedAfter(watch.signal, 500)).toBeUndefined();
	});

	it('a drip below the minimum rate ends once stallMs has passed', async () => {
		const watch = watchTransfer({ stallMs: 200, minBytesPerSecond: 1000 });
		const dripping = (async () => {
			while (!watch.signal.aborted) {
				watch.moved(10); // 10 bytes every 50 ms: 200 bytes/s, never still for 200 ms
				await sleep(50);
			}
		})();
		const at = await abortedAfter(watch.signal, 3000);
		await dripping;
		expect(watch.stopped).toBe('tooSlow');
		expect(at).toBeGreaterThan(200);
		expect(at).toBeLessThan(1500);
	});

	it('a transfer at the minimum rate or above is never too slow', async () => {
		const watch = watchTransfer({ stallMs: 100, minBytesPerSecond: 1000 });
		for (let i = 0; i < 12; i++) {
			watch.moved(100); // 2000 bytes/s
			await sleep(50);
		}
		expect(watch.stopped).toBeUndefined();
		watch.end();
	});

	it('a deadline ends what cannot be watched, bytes or not', async () => {
		const watch = watchTransfer({ stallMs: Infinity, deadlineMs: 250 });
		watch.moved(5);
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('deadline');
		expect(at).toBeGreaterThanOrEqual(245);
		expect(at).toBeLessThan(1250);
	});

	it('expectQuiet: bytes still on their way move the stall clock past them', async () => {
		const watch = watchTransfer({ stallMs: 150 });
		watch.expectQuiet(300);
		const at = await abortedAfter(watch.signal, 2000);
		expect(watch.stopped).toBe('stalled');
		expect(at).toBeGreaterThanOrEqual(445);
	});

	it('durations are shown in seconds, then minutes and seconds', () => {
		expect(shownDuration(2000)).toBe('2 s');
		expect(shownDuration(119_400)).toBe('119 s');
		expect(shownDuration(360_000)).toBe('6 min');
		expect(shownDuration(380_000)).toBe('6 min 20 s');
	});
});
