// The night tier's booth (booth.js): its plan, and a short night written for real.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { planNight, startBooth, MB } = require('./booth');
const { jpegIsWhole } = require('./photos');

describe('the plan of a night', () => {
	const plan = planNight({ photos: 200, seconds: 600, seed: 37 });

	test('200 photos of 3-6 MB, named in order, every second one through a temporary name', () => {
		expect(plan).toHaveLength(200);
		expect(plan[0].name).toBe('booth-0001.jpg');
		expect(plan[199].name).toBe('booth-0200.jpg');
		expect(plan.every((p: any) => p.size >= 3 * MB && p.size <= 6 * MB)).toBe(true);
		expect(plan.filter((p: any) => p.viaTemp)).toHaveLength(100);
		expect(plan.every((p: any) => p.writeMs >= 1000 && p.writeMs <= 2000)).toBe(true);
	});

	test('in bursts of 3-4 over the night, one photo after the other; the same seed, the same night', () => {
		// a burst's photos follow each other within a second; the next burst starts later
		const bursts: number[] = [1];
		for (let i = 1; i < plan.length; i++) {
			const gap = plan[i].startMs - (plan[i - 1].startMs + plan[i - 1].writeMs);
			expect(gap).toBeGreaterThanOrEqual(200);
			if (gap <= 800) bursts[bursts.length - 1]++;
			else bursts.push(1);
		}
		expect(bursts.every((size) => size === 3 || size === 4)).toBe(true);
		expect(plan[199].startMs).toBeLessThan(600_000);
		expect(plan[199].startMs).toBeGreaterThan(540_000);
		expect(planNight({ photos: 200, seconds: 600, seed: 37 })).toEqual(plan);
		expect(planNight({ photos: 200, seconds: 600, seed: 38 })).not.toEqual(plan);
	});
});

describe('a short night written for real', () => {
	let folder: string;
	beforeEach(() => {
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-booth-test-'));
	});
	afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

	test('each photo arrives whole under its final name, the temporary names are gone, the folder is counted', async () => {
		const plan = [0, 1, 2, 3].map((i) => ({
			name: `booth-000${i + 1}.jpg`,
			size: 30_000 + i * 1000,
			startMs: i * 60,
			writeMs: 50,
			viaTemp: i % 2 === 1,
		}));
		const seen = new Set<string>();
		const watcher = fs.watch(folder, (_event, name) => name && seen.add(String(name)));
		const booth = startBooth({ folder, plan });
		await booth.halfway;
		expect(booth.written.length).toBeGreaterThanOrEqual(2);
		const written = await booth.done;
		watcher.close();
		expect(fs.readdirSync(folder).sort()).toEqual(plan.map((p) => p.name));
		expect(seen.has('booth-0002.jpg.tmp')).toBe(true);
		for (const photo of written) {
			const bytes = fs.readFileSync(photo.path);
			expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(photo.sha256);
			expect(jpegIsWhole(bytes)).toBe(true);
		}
		const last = written[written.length - 1];
		expect(booth.heldAt(last.finishedAt)).toEqual({
			photos: 4,
			bytes: plan.reduce((sum, p) => sum + p.size, 0),
		});
		expect(booth.heldAt(written[0].finishedAt - 1)).toEqual({ photos: 0, bytes: 0 });
	});

	test('stop() ends the night at once; the photo being written stays as it was', async () => {
		const plan = [
			{ name: 'booth-0001.jpg', size: 30_000, startMs: 0, writeMs: 60_000, viaTemp: false },
			{ name: 'booth-0002.jpg', size: 30_000, startMs: 120_000, writeMs: 1000, viaTemp: false },
		];
		const booth = startBooth({ folder, plan });
		while (
			!fs.existsSync(path.join(folder, 'booth-0001.jpg')) ||
			fs.statSync(path.join(folder, 'booth-0001.jpg')).size === 0
		)
			await new Promise((resolve) => setTimeout(resolve, 10));
		booth.stop();
		expect(await booth.done).toEqual([]);
		expect(fs.readdirSync(folder)).toEqual(['booth-0001.jpg']);
		expect(jpegIsWhole(fs.readFileSync(path.join(folder, 'booth-0001.jpg')))).toBe(false);
	});
});
