// The night tier's figures (figures.js) and targets (targets.js), on made-up samples and executions.
const { marks, peak, median } = require('./figures');
const { nightTargets, driveTargets } = require('./targets');

const MIB = 2 ** 20;

describe('figures at 25, 50 and 100 % of the folder', () => {
	// the booth finishes a photo every 10 s from t = 10 s; one sample a second; a run every 10 s from 5 s
	const photos = Array.from({ length: 8 }, (_, i) => ({ finishedAt: (i + 1) * 10_000, size: MIB }));
	const heldAt = (at: number) => {
		const held = photos.filter((p) => p.finishedAt <= at);
		return { photos: held.length, bytes: held.length * MIB };
	};
	const samples = Array.from({ length: 100 }, (_, i) => ({
		at: i * 1000,
		generation: i < 50 ? 1 : 2,
		rss: (100 + i) * MIB,
		mainRss: (80 + i) * MIB,
		rchar: i * 10 * MIB,
		readBytes: 0,
		processes: 2,
		binary: 0,
	}));
	const executions = Array.from({ length: 9 }, (_, i) => ({
		id: String(i + 1),
		mode: 'trigger',
		status: i === 4 ? 'crashed' : 'success',
		startedAt: 5000 + i * 10_000,
		stoppedAt: 5000 + i * 10_000 + 2500,
		// run 3 ended at Keep New Files: it does not count when others reached the Upload
		nodes: i === 2 ? ['Trigger', 'Keep New'] : ['Trigger', 'Keep New', 'Upload'],
	}));

	test('each mark is the first successful run that started once the folder held that share', () => {
		const runs = marks({ executions, samples, photos, heldAt, uploads: ['Upload'] });
		expect(runs.map((r: any) => [r.mark, r.id, r.folderPhotos])).toEqual([
			// photo 2 finished at 20 s: run 3 started at 25 s but did not upload; run 4 at 35 s
			[25, '4', 3],
			// photo 4 at 40 s: run 5 (45 s) crashed, run 6 started at 55 s
			[50, '6', 5],
			[100, '9', 8],
		]);
		// run 4: 35-37.5 s; the samples at 35 s (before) to 38 s (after)
		expect(runs[0]).toMatchObject({ ms: 2500, rss: 138 * MIB, rchar: 30 * MIB, binary: null });
	});

	test('read bytes are compared within one n8n start only', () => {
		const crossing = [
			{
				id: 'x',
				mode: 'trigger',
				status: 'success',
				startedAt: 48_500,
				stoppedAt: 51_500,
				nodes: [],
				nodeMs: {},
			},
		];
		const [run] = marks({ executions: crossing, samples, photos: photos.slice(0, 4), heldAt });
		// 48.5-51.5 s: the samples at 48 s to 52 s, of which 50-52 s are of the second start
		expect(run.rchar).toBe(20 * MIB);
	});

	test('peak and median', () => {
		expect(peak(samples, 'rss', 10_000, 20_000)).toBe(119 * MIB);
		expect(peak([], 'rss')).toBe(0);
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 2, 3])).toBe(2.5);
	});
});

describe('targets', () => {
	const perPhoto = (wholes: number[], partials: number[] = []) =>
		wholes.map((whole, i) => ({ name: `p${i}.jpg`, whole, prefixes: partials[i] ?? 0, other: 0 }));
	const night = (photoResults: any[], extra: any = {}) => ({
		label: 'x',
		binaryMode: 'filesystem',
		trigger: 'schedule',
		album: {
			photos: photoResults.length,
			once: photoResults.filter((p) => p.whole === 1).length,
			twice: photoResults.filter((p) => p.whole > 1).length,
			extraCopies: 0,
			partial: photoResults.filter((p) => p.prefixes > 0).length,
			lost: photoResults.filter((p) => p.whole === 0).length,
			strays: [],
			perPhoto: photoResults,
		},
		runs: [
			{ mark: 25, binary: 10 * MIB, rss: 600 * MIB, folderBytes: 100 * MIB },
			{ mark: 100, binary: 12 * MIB, rss: 700 * MIB, folderBytes: 400 * MIB },
		],
		inFlightAtKill: { name: 'p1.jpg', stored: true, atPhotos: 2 },
		peaks: {
			rss: 900 * MIB,
			mainRss: 800 * MIB,
			rssBefore50: 800 * MIB,
			rssAfter50: 900 * MIB,
			binary: 30 * MIB,
			binaryBefore50: 20 * MIB,
			binaryAfter50: 30 * MIB,
			database: 0,
		},
		folder: { photos: 4, bytes: 400 * MIB, bytesAt50: 200 * MIB, bytesWhileDown: 0 },
		night: { executions: 10, notSuccessful: 1, largestPhoto: 6 * MIB, downMs: 0, restartMs: 0 },
		...extra,
	});
	const failing = (targets: any[]) => targets.filter((t) => t.holds === false).map((t) => t.target);

	test('a night a guard stopped fails that target, whatever the album', () => {
		const stopped = night(perPhoto([1, 1, 1, 1]), {
			guard: "n8n's binary data folder passed 40 GiB (the guard)",
		});
		expect(failing(nightTargets(stopped, 'schedule'))).toEqual([
			'n8n ran the whole night, within the guards (memory, binary data folder, free disk)',
		]);
	});

	test('the schedule shape allows the photo in flight at the kill twice, and no other', () => {
		expect(failing(nightTargets(night(perPhoto([1, 2, 1, 1])), 'schedule'))).toEqual([]);
		expect(failing(nightTargets(night(perPhoto([2, 1, 1, 1])), 'schedule'))).toEqual([
			'no photo stored twice (beyond the one in flight at the kill)',
		]);
	});

	test('the example must store every photo once and whole; its memory and binary data must not grow', () => {
		expect(failing(nightTargets(night(perPhoto([1, 1, 1, 1])), 'example'))).toEqual([]);
		expect(failing(nightTargets(night(perPhoto([1, 2, 1, 0], [1])), 'example'))).toEqual([
			'every photo stored exactly once and whole',
			'no partial photo stored',
			'no photo lost',
		]);
		const grown = night(perPhoto([1, 1, 1, 1]), {
			peaks: {
				rss: 0,
				mainRss: 0,
				rssBefore50: 800 * MIB,
				rssAfter50: 1300 * MIB,
				binary: 0,
				binaryBefore50: 100 * MIB,
				// 200 MiB more: more than four photos of 6 MiB and a quarter of the 200 MiB the folder grew
				binaryAfter50: 300 * MIB,
				database: 0,
			},
		});
		expect(failing(nightTargets(grown, 'example'))).toEqual([
			"n8n's memory after half-way, the restart's catch-up included, does not grow with the folder",
			"n8n's binary data folder does not grow with the folder",
		]);
		const heavier = night(perPhoto([1, 1, 1, 1]), {
			runs: [
				{ mark: 25, rss: 600 * MIB, folderBytes: 100 * MIB },
				{ mark: 100, rss: 900 * MIB, folderBytes: 400 * MIB },
			],
		});
		expect(failing(nightTargets(heavier, 'example'))).toEqual([
			"a run's memory does not grow with the folder (run at 100 % against 25 % and 50 %)",
		]);
		// the restarted n8n's run at 50 % is the base when it is the larger
		const restarted = night(perPhoto([1, 1, 1, 1]), {
			runs: [
				{ mark: 25, rss: 600 * MIB, folderBytes: 100 * MIB },
				{ mark: 50, rss: 850 * MIB, folderBytes: 200 * MIB },
				{ mark: 100, rss: 900 * MIB, folderBytes: 400 * MIB },
			],
		});
		expect(failing(nightTargets(restarted, 'example'))).toEqual([]);
		// the photos written while n8n was down are read at once after the restart
		const caughtUp = (bytesWhileDown: number) =>
			night(perPhoto([1, 1, 1, 1]), {
				peaks: { ...night([]).peaks, binaryBefore50: 100 * MIB, binaryAfter50: 200 * MIB },
				folder: { photos: 4, bytes: 400 * MIB, bytesAt50: 200 * MIB, bytesWhileDown },
			});
		expect(failing(nightTargets(caughtUp(60 * MIB), 'example'))).toEqual([]);
		expect(failing(nightTargets(caughtUp(0), 'example'))).toEqual([
			"n8n's binary data folder does not grow with the folder",
		]);
		// a night that does not judge growth (the short one) reports those targets, and still fails the album
		const unjudged: Array<{ target: string; holds: boolean | null }> = nightTargets(
			night(perPhoto([1, 1, 1, 0])),
			'example',
			false,
		);
		expect(failing(unjudged)).toEqual([
			'every photo stored exactly once and whole',
			'no photo lost',
		]);
		expect(unjudged.filter((t) => t.holds === null).map((t) => t.target)).toEqual([
			"a run's memory does not grow with the folder (run at 100 % against 25 % and 50 %)",
			"n8n's memory after half-way, the restart's catch-up included, does not grow with the folder",
			"n8n's binary data folder does not grow with the folder",
		]);
	});

	test('a drive run with nothing new: no body, and at most 1.5x an empty run (medians)', () => {
		const run = (kind: string, ms: number, downloads = 0, listed = 100) => ({
			kind,
			ms,
			downloads,
			listed,
		});
		const drive = (runs: any[]) => ({
			files: 100,
			runs,
			album: { stored: 100, distinct: 100, twice: 0 },
		});
		const good = drive([
			run('nothing new', 300),
			run('nothing new', 900),
			run('nothing new', 310),
			run('empty', 250, 0, 0),
			run('empty', 210, 0, 0),
			run('empty', 700, 0, 0),
		]);
		expect(failing(driveTargets(good, median))).toEqual([]);
		const bad = drive([run('nothing new', 300, 1), run('empty', 100, 0, 0)]);
		expect(failing(driveTargets(bad, median))).toEqual([
			'a run with nothing new downloads no file body',
			'a run with nothing new of 100 files takes at most 1.5x a run over an empty folder',
		]);
	});
});
