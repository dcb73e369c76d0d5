import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

const photos = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		binary: {
			data: binaryFromBuffer(mediaBytes(3000), {
				fileName: `rate-${String(index).padStart(3, '0')}.jpg`,
			}),
		},
	}));

/**
 * The node under a service's rate limit, in the real engine: it learns the rate from the 429s
 * (transport/pacing.ts) instead of provoking them. Counts only, no timings: the run's speed is
 * the benchmark's business (test/tools/bench, rate-limit rows).
 */
describe('Photo > Upload under a rate limit', () => {
	const emu = useEmulator();

	const signCalls = () =>
		emu.requests.filter((r) => r.server === 'api' && r.url.startsWith('/getuploadurl'));

	it('5 requests a second on the service, default options: every file once, few getuploadurl calls refused', async () => {
		emu.setOptions({ apiRateLimitPerSecond: 5 });
		const files = 60;
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters({ options: {} }),
			inputItems: photos(files),
		});
		expect(items.map((item) => item.json.outcome)).toEqual(Array(files).fill('uploaded'));
		const stored = emu.uploads.map((upload) => upload.fileName).sort();
		expect(stored).toEqual(
			photos(files).map((_, index) => `rate-${String(index).padStart(3, '0')}.jpg`),
		);
		const refused = signCalls().filter((r) => r.status === 429).length;
		// Before the first 429 nothing is paced, so the calls already on their way at the start are
		// refused (about one round of the first uploads); after that about 1 call in 30. The client
		// that only adapted its concurrency had 40 % of these calls refused.
		expect(refused).toBeGreaterThan(0);
		expect(refused / signCalls().length).toBeLessThanOrEqual(0.15);
		expect(signCalls().length).toBe(files + refused);
	});
});
