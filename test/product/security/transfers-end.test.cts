import { createHash, randomBytes } from 'node:crypto';

import type { Emulator } from '../node/fixture.cts';
import { runEventPics, uploadParameters, useEmulator } from '../node/fixture.cts';

/**
 * Threat: a server that holds the node as long as it likes (an AI agent's tool call, a form's
 * answer): silent before its headers, a byte now and then, a body without end. The URL source's
 * download always ends: no byte for Timeout (the headers included), less than 256 kbit/s on average
 * once Timeout has passed (at most Timeout + size at that rate), and never more than Max File Size.
 * The emulator serves the files (`emu.addDownload`, on 127.0.0.1, so Allow Internal Addresses is on).
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300_000)]);

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
	const started = Date.now();
	const result = await run();
	return [result, (Date.now() - started) / 1000];
}

describe('security: a URL-source download always ends', () => {
	const emu = useEmulator<
		Emulator & {
			addDownload: (
				name: string,
				bytes: Buffer,
				o?: { contentType?: string; length?: boolean },
			) => string;
		}
	>();
	let url: string;
	beforeEach(() => (url = emu.addDownload('party.jpg', PHOTO, { contentType: 'image/jpeg' })));

	const download = (options: object) =>
		timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({
					source: 'url',
					fileUrl: url,
					options: { allowInternalAddresses: true, maxAttempts: 1, ...options },
				}),
			}),
		);

	it('a server that never sends its headers ends after Timeout', async () => {
		emu.addFault({ endpoint: 'download', kind: 'stall' });
		const [result, seconds] = await download({ timeoutSeconds: 2 });
		expect(result.nodeError?.message).toBe(
			`The download stalled: its server sent nothing for 2 s (Timeout): ${url}`,
		);
		expect(result.nodeError?.description).toContain(
			'The server of the File URL stopped sending data.',
		);
		expect(seconds).toBeGreaterThanOrEqual(2);
		expect(seconds).toBeLessThan(8);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a server that stops in the middle of the file ends after Timeout, naming how far it came', async () => {
		emu.addFault({ endpoint: 'download', kind: 'stall', afterBytes: 100_000 });
		const [result, seconds] = await download({ timeoutSeconds: 2 });
		expect(result.nodeError?.message).toBe(
			`The download stalled: no data came after 97.7 KiB for 2 s (Timeout): ${url}`,
		);
		expect(seconds).toBeGreaterThanOrEqual(2);
		expect(seconds).toBeLessThan(8);
	});

	it('a drip of 1 byte a second, never still for Timeout, ends once Timeout has passed (too slow)', async () => {
		emu.addFault({ endpoint: 'download', kind: 'drip', ms: 1000, contentType: 'image/jpeg' });
		const [result, seconds] = await download({ timeoutSeconds: 3 });
		expect(result.nodeError?.message).toMatch(
			new RegExp(
				`^The download was too slow: its server sent [1-5] bytes in [3-6] s, less than 256 kbit/s, the least the node waits for`,
			),
		);
		expect(result.nodeError?.description).toContain('The server of the File URL sends too slowly');
		expect(seconds).toBeGreaterThanOrEqual(3);
		expect(seconds).toBeLessThan(9);
	});

	it('a body without end stops at Max File Size', async () => {
		emu.addFault({ endpoint: 'download', kind: 'endless', contentType: 'image/jpeg' });
		const [result, seconds] = await download({ maxFileSizeMb: 2 });
		expect(result.nodeError?.message).toMatch(
			/^The file of the File URL is larger than Max File Size \(2 MiB\): \S+ sent more; stopped after 2(\.\d)? MiB$/,
		);
		expect(seconds).toBeLessThan(10);
	});

	it('a download slower than 256 kbit/s ends by Timeout + its bytes at that rate', async () => {
		emu.setOptions({ downloadBytesPerSecond: 16 * 1024 });
		const [result, seconds] = await download({ timeoutSeconds: 1 });
		// 16 KiB/s owes 32 KiB/s once 1 s has passed: behind at about 2 s (the whole file needs 18 s)
		expect(result.nodeError?.message).toMatch(
			new RegExp(
				`^The download was too slow: its server sent [\\d.]+ KiB in \\d s, less than 256 kbit/s`,
			),
		);
		expect(seconds).toBeGreaterThanOrEqual(1.5);
		expect(seconds).toBeLessThan(8);
	});

	it('a slow download that keeps moving arrives, however much longer than Timeout it takes', async () => {
		emu.setOptions({ downloadBytesPerSecond: 100 * 1024 });
		const [result, seconds] = await download({ timeoutSeconds: 1 });
		expect(result.nodeError).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ statusCode: 200, bytes: PHOTO.length, url });
		expect(emu.uploads[0].sha256).toBe(sha256(PHOTO));
		expect(seconds).toBeGreaterThan(2.5);
	});
});
