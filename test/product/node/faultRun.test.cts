import { createHash } from 'node:crypto';

import { fileItem, fromList, mediaBytes, runEventPics, useEmulator } from './fixture.cts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * 300 uploads through the real engine while the emulator answers 10% 429, 5% 500, resets 2% of the
 * PUTs (half of them after storing the file, so the reset hides a completed upload) and signs 2% of
 * the addresses already expired. Every file must arrive; a file may be stored twice only when its
 * output item says so.
 *
 * The node runs with its own retry policy (DEFAULT_RETRY_POLICY is frozen: no test rewrites it).
 * With up to 64 uploads at once the back-off waits overlap, so the run takes about as long as it
 * did with a 20 ms base delay (8.9 s then, 8.3 s now, one run each on this machine). The waits
 * themselves are tested in test/product/unit/retry.test.cts and
 * test/product/security/waits-and-sizes.test.cts.
 */
describe('fault run: 300 uploads under 429, 500, resets and expired addresses', () => {
	const emu = useEmulator({ seed: 20261122 });

	it('delivers every file, each stored once unless the output says a reset hid a completed PUT', async () => {
		const files = Array.from({ length: 300 }, (_, index) => ({
			name: `booth-${String(index).padStart(4, '0')}.jpg`,
			bytes: mediaBytes(2048),
		}));
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 429, probability: 0.1 });
		emu.addFault({ endpoint: 'put', kind: 'status', status: 429, probability: 0.1 });
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 500, probability: 0.05 });
		emu.addFault({ endpoint: 'put', kind: 'status', status: 500, probability: 0.05 });
		emu.addFault({ endpoint: 'put', kind: 'reset', probability: 0.01 });
		emu.addFault({ endpoint: 'put', kind: 'resetAfterStore', probability: 0.01 });
		emu.addFault({ endpoint: 'getuploadurl', kind: 'expiredUrl', probability: 0.02 });

		const { items, status } = await runEventPics({
			emu,
			parameters: {
				resource: 'photo',
				operation: 'upload',
				simplify: false,
				event: fromList('wedding-anna-ben'),
				album: fromList('booth'),
			},
			inputItems: files.map((file) => fileItem(file.name, file.bytes, 'image/jpeg')),
		});

		expect(status).toBe('success');
		expect(items).toHaveLength(300);
		expect(items.map((item) => item.pairedItem)).toEqual(
			files.map((_, index) => ({ item: index })),
		);
		expect(items.map((item) => item.json.fileName)).toEqual(files.map((file) => file.name));
		expect(items.every((item) => item.json.statusCode === 200)).toBe(true);

		const storedCount = new Map<string, number>();
		for (const upload of emu.uploads)
			storedCount.set(String(upload.sha256), (storedCount.get(String(upload.sha256)) ?? 0) + 1);
		files.forEach((file, index) => {
			const count = storedCount.get(sha256(file.bytes)) ?? 0;
			const flagged = items[index].json.possibleDuplicate === true;
			expect({ file: file.name, count, flagged }).toEqual({
				file: file.name,
				count: flagged ? count : 1,
				flagged,
			});
			expect(count).toBeGreaterThanOrEqual(1);
			expect(count).toBeLessThanOrEqual(flagged ? 2 : 1);
		});

		// the faults really happened, and the retries are reported
		const statuses = emu.requests.map((r) => r.status);
		expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(20);
		expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(10);
		expect(statuses.filter((s) => s === 403).length).toBeGreaterThan(0);
		expect(items.filter((item) => Number(item.json.attempts) > 1).length).toBeGreaterThan(50);
	}, 240_000);
});
