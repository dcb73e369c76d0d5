import { createHash, randomBytes } from 'node:crypto';

import type { Emulator, RunOptions, RunResult } from './fixture.cts';
import { binaryFromBuffer, runEventPics, startEmulator, uploadParameters } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hashForStore } = require('../../tools/engine/dedup-store') as {
	hashForStore: (value: string) => string;
};

interface StoreCall {
	method: string;
	values: number;
	entries: number;
	ms: number;
}
const calls = (): StoreCall[] => engine.dedupStoreCalls();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const keyOf = (photo: Buffer) => `wedding-anna-ben/booth/sha256:${sha256(photo)}`;
const MARK = 'eventpics:history:2';

/** The node's one row in the store: its key and the entries (md5 of each value, oldest first). */
function storedRow(): { key: string; data: string[] } {
	const rows = engine.dedupStoreRows.get() as Record<string, string>;
	const [key, ...others] = Object.keys(rows);
	expect(others).toEqual([]);
	return { key, data: JSON.parse(rows[key]).data };
}
function writeRow(key: string, values: string[]) {
	engine.dedupStoreRows.set({
		[key]: JSON.stringify({ mode: 'entries', data: values.map(hashForStore) }),
	});
}
const stored = (value: string) => storedRow().data.includes(hashForStore(value));

const photosOf = (count: number) => Array.from({ length: count }, () => randomBytes(600));
const input = (photos: Buffer[]) =>
	photos.map((photo, i) => ({
		json: {},
		binary: { data: binaryFromBuffer(photo, { fileName: `h-${i}.jpg` }) },
	}));
const skipping = (options: object = {}) =>
	uploadParameters({ takenAtMode: 'none', options: { skipDuplicates: true, ...options } });

describe('Skip Files Uploaded Before: the history in n8n store', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => {
		emu.reset();
		engine.clearDedupStore();
	});

	/** A run with its store calls and how long it took. */
	async function run(
		photos: Buffer[],
		parameters = skipping(),
		continueOnFail = false,
		mode: RunOptions['mode'] = 'manual',
	) {
		const before = calls().length;
		const started = Date.now();
		const result = await runEventPics({
			emu,
			parameters,
			inputItems: input(photos),
			continueOnFail,
			mode,
		});
		return { result, calls: calls().slice(before), ms: Date.now() - started };
	}

	it('asks the store a fixed number of times, whatever the number of files', async () => {
		const shape = (list: StoreCall[]) => list.map((call) => `${call.method}:${call.values}`);
		const few = photosOf(3);
		const many = photosOf(150);
		// new files: one check of every "checked" entry and the mark, the end-of-run record and the
		// count beside it; a batch in between only when the run lasted over a second. A production
		// execution (here a webhook's) also looks once after the record.
		const batchesAllowed = (ms: number) => Math.floor(ms / 1000);
		const endOfRun = (mode: 'manual' | 'webhook', n: number) =>
			[
				`checkProcessedAndRecord:${2 * n + 1}`,
				...(mode === 'webhook' ? [`checkProcessedAndRecord:${2 * n + 1}`] : []),
				'getProcessedDataCount:0',
			].sort();
		for (const photos of [few, many]) {
			engine.clearDedupStore();
			const fresh = await run(photos);
			expect(fresh.result.items.every((item) => item.json.statusCode === 200)).toBe(true);
			const n = photos.length;
			// the first run of a node also asks about the keys themselves (an older history holds
			// only those) and takes back at once what that question wrote
			expect(shape(fresh.calls.slice(0, 3))).toEqual([
				`checkProcessedAndRecord:${n + 1}`,
				`checkProcessedAndRecord:${n}`,
				`removeProcessed:${n}`,
			]);
			const rest = fresh.calls.slice(3);
			const batches = rest.filter(
				(call) => call.method === 'checkProcessedAndRecord' && call.values < 2 * n + 1,
			);
			expect(batches.length).toBeLessThanOrEqual(batchesAllowed(fresh.ms));
			expect(shape(rest.filter((call) => !batches.includes(call))).sort()).toEqual(
				endOfRun('manual', n),
			);

			// known files: the "checked" entries, then the keys themselves, nothing written
			const again = await run(photos);
			expect(again.result.items.every((item) => item.json.outcome === 'skipped')).toBe(true);
			expect(shape(again.calls)).toEqual([
				`checkProcessedAndRecord:${n + 1}`,
				`checkProcessedAndRecord:${n}`,
			]);

			// new files on a history the node wrote: no question about the keys themselves
			for (const mode of ['manual', 'webhook'] as const) {
				const more = await run(photosOf(n), skipping(), false, mode);
				const moreBatches = more.calls
					.slice(1)
					.filter((call) => call.method === 'checkProcessedAndRecord' && call.values < 2 * n + 1);
				expect(moreBatches.length).toBeLessThanOrEqual(batchesAllowed(more.ms));
				expect(more.calls[0]).toMatchObject({ method: 'checkProcessedAndRecord', values: n + 1 });
				expect(
					shape(more.calls.slice(1).filter((call) => !moreBatches.includes(call))).sort(),
				).toEqual(endOfRun(mode, n));
			}
		}
		expect(emu.uploads).toHaveLength(3 * (few.length + many.length));
	});

	it('records a key only for a file the storage confirmed: a failed file leaves nothing', async () => {
		const photos = photosOf(3);
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
		const first = await run(photos, skipping({ concurrency: 1 }), true);
		expect(first.result.items.map((item) => item.json.outcome)).toEqual([
			'failed',
			'uploaded',
			'uploaded',
		]);
		expect(stored(keyOf(photos[0]))).toBe(false);
		expect(stored(`checked:${keyOf(photos[0])}`)).toBe(false);
		for (const photo of photos.slice(1)) {
			expect(stored(keyOf(photo))).toBe(true);
			expect(stored(`checked:${keyOf(photo)}`)).toBe(true);
		}
		const second = await run(photos);
		expect(second.result.items.map((item) => item.json.outcome)).toEqual([
			'uploaded',
			'skipped',
			'skipped',
		]);
		expect(emu.uploads).toHaveLength(3);
	});

	it('uploads a file whose check was written but whose key was not (a run that was killed)', async () => {
		const [photo] = photosOf(1);
		await run(photosOf(1)); // makes the node's row
		const { key } = storedRow();
		writeRow(key, [MARK, `checked:${keyOf(photo)}`]);
		const { result, calls: made } = await run([photo]);
		expect(result.items[0].json).toMatchObject({ statusCode: 200 });
		// the question about the key itself wrote it: it was taken back at once
		expect(made.slice(0, 3).map((call) => `${call.method}:${call.values}`)).toEqual([
			'checkProcessedAndRecord:2',
			'checkProcessedAndRecord:1',
			'removeProcessed:1',
		]);
		expect(stored(keyOf(photo))).toBe(true);
	});

	it('skips files an older version of the node recorded (keys without "checked" entries)', async () => {
		const [old, fresh] = photosOf(2);
		await run(photosOf(1));
		const { key } = storedRow();
		writeRow(key, [keyOf(old)]);
		const { result } = await run([old, fresh]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['skipped', 'uploaded']);
		expect(stored(keyOf(fresh))).toBe(true);
		expect(stored(MARK)).toBe(true);
	});

	it('when the cap dropped the mark, a "checked" entry seen spares the question about the new keys', async () => {
		const [known, fresh] = photosOf(2);
		await run(photosOf(1));
		const { key } = storedRow();
		// the mark was the oldest entry: n8n dropped it at the cap, with every key older than it
		writeRow(key, [`checked:${keyOf(known)}`, keyOf(known)]);
		const { result, calls: made } = await run([known, fresh]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['skipped', 'uploaded']);
		// the key of the new file is never asked about (asking would write it before its upload)
		expect(made.slice(0, 2).map((call) => `${call.method}:${call.values}`)).toEqual([
			'checkProcessedAndRecord:3',
			'checkProcessedAndRecord:1',
		]);
		expect(made.some((call) => call.method === 'removeProcessed')).toBe(false);
		expect(stored(keyOf(fresh))).toBe(true);
		expect(stored(MARK)).toBe(true);
	});

	it('uploads the same content twice in one input once; a copy goes up when the first one failed', async () => {
		const [photo, other] = photosOf(2);
		const same = await run([photo, other, photo], skipping({ concurrency: 1 }));
		expect(same.result.items.map((item) => item.json.outcome)).toEqual([
			'uploaded',
			'uploaded',
			'skipped',
		]);
		expect(same.result.items[2].json.reason).toBe(
			'Item 0 of this run has the same file for this event and album, and it was uploaded (Skip Files Uploaded Before).',
		);
		engine.clearDedupStore();
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
		const retried = await run([other, other], skipping({ concurrency: 1 }), true);
		expect(retried.result.items.map((item) => item.json.outcome)).toEqual(['failed', 'uploaded']);
		expect(emu.uploads).toHaveLength(3);
	});

	it('with 200,000 entries (its cap): skips known files, forgets the oldest past the cap, warns', async () => {
		const [oldest, known] = photosOf(2);
		const fresh = photosOf(10);
		await run(photosOf(1));
		const { key } = storedRow();
		const filler = Array.from({ length: 99_997 }, (_, i) => `wedding-anna-ben/booth/sha256:f${i}`);
		writeRow(key, [
			...[oldest, ...filler.slice(0, 10)].flatMap((photo) =>
				typeof photo === 'string'
					? [`checked:${photo}`, photo]
					: [`checked:${keyOf(photo)}`, keyOf(photo)],
			),
			MARK,
			...filler.slice(10).flatMap((k) => [`checked:${k}`, k]),
			`checked:${keyOf(known)}`,
			keyOf(known),
		]);
		// 99,999 files (two entries each) and the mark: one entry short of the cap
		expect(storedRow().data).toHaveLength(199_999);
		const { result, calls: made } = await run([known, ...fresh]);
		expect(result.items.map((item) => item.json.outcome)).toEqual([
			'skipped',
			...fresh.map(() => 'uploaded'),
		]);
		expect(made.filter((call) => call.method !== 'getProcessedDataCount').length).toBeLessThan(8);
		const warning = result.items[1].json.warnings as string[];
		expect(warning).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^This node's history of uploaded files \(Skip Files Uploaded Before\) holds 200,000 of 200,000 entries, two per file\./,
				),
			]),
		);
		const hints = (result as RunResult & { run: any }).run.data.resultData.runData[
			'Node Under Test'
		][0].hints;
		expect(hints).toContainEqual({
			message: warning.at(-1),
			type: 'warning',
			location: 'outputPane',
		});
		expect(storedRow().data).toHaveLength(200_000);
		// 20 entries were added for the 10 new files: n8n dropped the oldest 19, the oldest file's among them
		expect(stored(keyOf(oldest))).toBe(false);
		const again = await run([oldest]);
		expect(again.result.items[0].json).toMatchObject({ statusCode: 200 });
	});
});
