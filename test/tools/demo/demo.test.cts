import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

import type { Emulator } from '../../product/node/fixture.cts';
import { startEmulator } from '../../product/node/fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runDemo, listPhotos, SAMPLES } = require('./demo');
const { ensureBuiltForTests } = require('./build') as { ensureBuiltForTests: () => string };

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const samples: string[] = listPhotos(SAMPLES);

describe('npm run demo', () => {
	let emu: Emulator;
	beforeAll(async () => {
		ensureBuiltForTests(); // the demo loads the node from dist/ (its runs below say build: false)
		emu = await startEmulator();
	}, 180_000);
	afterAll(async () => {
		await emu.close();
	});
	beforeEach(() => emu.reset());

	it('ships small real sample photos: JPEG, PNG and HEIC, under 300 KB in all', () => {
		const names = samples.map((file) => basename(file));
		expect(names).toEqual([
			'booth-0001.jpg',
			'booth-0002.jpg',
			'booth-0003.jpg',
			'confetti.png',
			'first-dance.heic',
		]);
		const total = samples.reduce((sum, file) => sum + readFileSync(file).length, 0);
		expect(total).toBeLessThan(300 * 1024);
		const head = (file: string) => readFileSync(file).subarray(0, 12);
		expect(head(samples[0]).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
		expect(head(samples[3]).subarray(1, 4).toString('latin1')).toBe('PNG');
		expect(head(samples[4]).subarray(4, 12).toString('latin1')).toBe('ftypheic');
	});

	it('uploads every sample into the first event with albums, its first album, byte for byte', async () => {
		const lines: string[] = [];
		const result = await runDemo({
			emulator: emu,
			build: false,
			io: { log: (line: string) => lines.push(line) },
		});

		expect(result.failed).toBe(0);
		expect(result.event.linkId).toBe('wedding-anna-ben');
		expect(result.album).toEqual({ id: 'booth', title: 'Photo booth' });
		expect(emu.uploads).toHaveLength(samples.length);
		for (const file of samples) {
			expect(emu.uploads).toContainEqual(
				expect.objectContaining({
					linkId: 'wedding-anna-ben',
					albumId: 'booth',
					fileName: basename(file),
					sha256: sha256(file),
				}),
			);
		}
		expect(emu.uploads.map((u) => u.contentType).sort()).toEqual([
			'image/heic',
			'image/jpeg',
			'image/jpeg',
			'image/jpeg',
			'image/png',
		]);

		const text = lines.join('\n');
		expect(text).toMatch(/file\s+album\s+type\s+size\s+attempts\s+taken at\s+result/);
		expect(text).toMatch(
			/first-dance\.heic\s+booth\s+image\/heic\s+5\.1 KB\s+1\s+2026-06-20T20:10:30Z\s+uploaded/,
		);
		// capture times come from the samples' EXIF (22:10:30 +02:00); booth-0003 has none
		expect(text).toMatch(
			/booth-0003\.jpg\s+booth\s+image\/jpeg\s+9\.0 KB\s+1\s+not sent\s+uploaded/,
		);
		expect(emu.uploads.find((u) => u.fileName === 'booth-0002.jpg')?.takenAt).toBe(
			Date.parse('2026-06-20T18:31:40.250+02:00'),
		);
		expect(text).toContain(
			`all ${samples.length} file(s) stored byte for byte in wedding-anna-ben/booth`,
		);
		expect(text).toContain(`See the photos: ${emu.baseUrl}/`);
	});

	it('takes --event and --album (an album spelled albumId by the service)', async () => {
		const result = await runDemo({
			emulator: emu,
			build: false,
			event: 'summer-party-2026',
			album: 'sp-dance',
			io: { log: () => undefined },
		});

		expect(result.album).toEqual({ id: 'sp-dance', title: 'Dance floor' });
		expect(emu.uploads).toHaveLength(samples.length);
		expect(new Set(emu.uploads.map((u) => `${u.linkId}/${u.albumId}`))).toEqual(
			new Set(['summer-party-2026/sp-dance']),
		);
	});

	it('refuses an album the event does not have, before uploading anything', async () => {
		await expect(
			runDemo({
				emulator: emu,
				build: false,
				event: 'wedding-anna-ben',
				album: 'sp-dance',
				io: { log: () => undefined },
			}),
		).rejects.toThrow('The event "wedding-anna-ben" has no album "sp-dance"');
		expect(emu.uploads).toHaveLength(0);
	});

	it('goes to another service with EVENTPICS_API_KEY and EVENTPICS_BASE_URL alone (here: this emulator)', async () => {
		const run = promisify(execFile);
		const { stdout } = await run(
			process.execPath,
			[
				join(__dirname, 'demo.js'),
				'--no-build',
				'--event',
				'wedding-anna-ben',
				'--album',
				'ceremony',
			],
			{
				env: { ...process.env, EVENTPICS_API_KEY: emu.apiKey, EVENTPICS_BASE_URL: emu.baseUrl },
			},
		);

		expect(stdout).toContain(
			`Using the real EventPics at ${emu.baseUrl} (EVENTPICS_API_KEY is set)`,
		);
		expect(stdout).toContain('Open "Anna & Ben\'s Wedding" in the EventPics app to see them.');
		expect(stdout).not.toContain(emu.apiKey);
		expect(emu.uploads.map((u) => u.sha256).sort()).toEqual(samples.map(sha256).sort());
		expect(new Set(emu.uploads.map((u) => u.albumId))).toEqual(new Set(['ceremony']));
	});

	it('stops with a clear message when EVENTPICS_BASE_URL is set without a key', async () => {
		const run = promisify(execFile);
		const env: NodeJS.ProcessEnv = { ...process.env, EVENTPICS_BASE_URL: emu.baseUrl };
		delete env.EVENTPICS_API_KEY;
		await expect(
			run(process.execPath, [join(__dirname, 'demo.js'), '--no-build'], { env }),
		).rejects.toMatchObject({
			code: 1,
			stderr: expect.stringContaining('EVENTPICS_BASE_URL is set but EVENTPICS_API_KEY is not'),
		});
		expect(emu.uploads).toHaveLength(0);
	});
});

describe('the demo build step', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { gulpScript } = require('./build');

	it('finds the gulp that `npm run build` runs', () => {
		expect(readFileSync(gulpScript(), 'utf8')).toContain('gulp');
	});
});
