import type { INodeParameters } from 'n8n-workflow';

import {
	binaryFromBuffer,
	fromList,
	maxOverlap,
	mediaBytes,
	runEventPics,
	useEmulator,
} from './fixture.cts';

const upload = (options: INodeParameters) => ({
	resource: 'photo',
	operation: 'upload',
	simplify: false,
	event: fromList('wedding-anna-ben'),
	album: fromList('booth'),
	options,
});
const photos = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		binary: {
			data: binaryFromBuffer(mediaBytes(5000), {
				fileName: `p-${String(index).padStart(3, '0')}.jpg`,
			}),
		},
	}));

describe('Photo > Upload: concurrent uploads', () => {
	const emu = useEmulator();

	it('runs up to "Concurrent Uploads" PUTs at once and keeps the input order', async () => {
		emu.setOptions({ latencyMs: 60 });
		const { items } = await runEventPics({
			emu,
			parameters: upload({ concurrency: 4 }),
			inputItems: photos(24),
		});
		expect(items.map((item) => item.json.fileName)).toEqual(
			photos(24).map((_, index) => `p-${String(index).padStart(3, '0')}.jpg`),
		);
		expect(items.map((item) => item.pairedItem)).toEqual(
			items.map((_, index) => ({ item: index })),
		);
		expect(maxOverlap(emu, 'storage')).toBe(4);
		expect(emu.uploads).toHaveLength(24);
	});

	it.each([
		['without the option', {}],
		['with 0, the value the option shows when added', { concurrency: 0 }],
	])(
		'%s: automatic, starts with 4 at once and grows (up to 64) while the answers stay quick',
		async (_, options) => {
			emu.setOptions({ latencyMs: 60 });
			const { items } = await runEventPics({
				emu,
				parameters: upload(options),
				inputItems: photos(60),
			});
			expect(items.every((item) => item.json.statusCode === 200)).toBe(true);
			expect(emu.uploads).toHaveLength(60);
			const signs = emu.requests.filter(
				(r) => r.server === 'api' && r.url.startsWith('/getuploadurl'),
			);
			const firstAnswer = Math.min(...signs.map((r) => r.endedAt ?? Number.POSITIVE_INFINITY));
			expect(signs.filter((r) => r.startedAt < firstAnswer)).toHaveLength(4);
			expect(maxOverlap(emu, 'storage')).toBeGreaterThan(8);
			expect(maxOverlap(emu, 'storage')).toBeLessThanOrEqual(64);
		},
	);

	it('a typed number reaches what the automatic choice reaches: 40 at once, past the old 16', async () => {
		emu.setOptions({ latencyMs: 200 });
		const { items } = await runEventPics({
			emu,
			parameters: upload({ concurrency: 40 }),
			inputItems: photos(80),
		});
		expect(items.every((item) => item.json.statusCode === 200)).toBe(true);
		expect(emu.uploads).toHaveLength(80);
		expect(maxOverlap(emu, 'api')).toBeGreaterThan(16);
		expect(maxOverlap(emu, 'api')).toBeLessThanOrEqual(40);
		expect(maxOverlap(emu, 'storage')).toBeLessThanOrEqual(40);
	});

	it("runs one at a time when set to 1, asking the next file's address while one is sent", async () => {
		emu.setOptions({ latencyMs: 100 });
		await runEventPics({ emu, parameters: upload({ concurrency: 1 }), inputItems: photos(8) });
		expect(maxOverlap(emu, 'storage')).toBe(1);
		expect(maxOverlap(emu, 'api')).toBe(1);
		expect(emu.uploads).toHaveLength(8);
		const puts = emu.requests.filter((r) => r.server === 'storage');
		const signs = emu.requests.filter(
			(r) => r.server === 'api' && r.url.startsWith('/getuploadurl'),
		);
		// file k's address was asked before the PUT of file k-1 ended (one round trip saved per file)
		for (let k = 1; k < 8; k++) expect(signs[k].startedAt).toBeLessThan(puts[k - 1].endedAt!);
	});

	it('without Continue On Fail, a file made ready while the failing one was sent is not sent', async () => {
		emu.setOptions({ latencyMs: 100 });
		emu.addFault({ endpoint: 'put', kind: 'status', status: 400, times: 1 });
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ concurrency: 1 }),
			inputItems: photos(4),
		});
		expect(nodeError).toBeDefined();
		const signs = emu.requests.filter(
			(r) => r.server === 'api' && r.url.startsWith('/getuploadurl'),
		);
		expect(signs).toHaveLength(2); // the next file's address was asked while the first was sent
		expect(emu.requests.filter((r) => r.server === 'storage')).toHaveLength(1);
		expect(emu.uploads).toHaveLength(0);
	});

	it('slows down under a rate limit and still delivers everything', async () => {
		// 20 a second: 30 photos (61 requests) still meet the limit many times over, in ~3 s instead of ~6
		emu.setOptions({ rateLimitPerSecond: 20 });
		const { items } = await runEventPics({
			emu,
			parameters: upload({ concurrency: 8 }),
			inputItems: photos(30),
		});
		expect(items.every((item) => item.json.statusCode === 200)).toBe(true);
		expect(emu.uploads).toHaveLength(30);
		const limited = emu.requests.filter((r) => r.status === 429).length;
		expect(limited).toBeGreaterThan(0);
		// a limiter that ignored 429 would hammer: keep the refused requests well below the useful ones
		expect(limited).toBeLessThan(emu.requests.length / 2);
	});
});
