import { createHash } from 'node:crypto';

import { historyAccount } from '../../../nodes/EventPics/actions/photo/history';
import type { RunOptions, RunResult } from './fixture.cts';
import type { TriggerEmulator } from './triggerFixture.cts';
import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	startEmulator,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { hashForStore, inMemoryDeduplicator } = require('../../tools/engine/dedup-store') as {
	hashForStore: (value: string) => string;
	inMemoryDeduplicator: { checkProcessedAndRecord: (items: string[]) => Promise<unknown> };
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

const photosOf = (count: number) => Array.from({ length: count }, () => mediaBytes(600));
const input = (photos: Buffer[]) =>
	photos.map((photo, i) => ({
		json: {},
		binary: { data: binaryFromBuffer(photo, { fileName: `h-${i}.jpg` }) },
	}));
const skipping = (options: object = {}) =>
	uploadParameters({
		takenAt: { source: 'none' },
		options: { skipUploaded: { settings: { identifyBy: 'content' } }, ...options },
	});

describe('Skip Files Uploaded Before: the history in n8n store', () => {
	const emu = useEmulator();
	beforeEach(() => {
		engine.clearDedupStore();
	});

	/** The node's two entries of a file: both name the account (Base URL and API key). */
	const checked = (key: string) => `checked:${historyAccount(emu.baseUrl, emu.apiKey)}/${key}`;
	const uploaded = (key: string) => `uploaded:${historyAccount(emu.baseUrl, emu.apiKey)}/${key}`;

	/** A run with its store calls. */
	async function run(
		photos: Buffer[],
		parameters = skipping(),
		continueOnFail = false,
		mode: RunOptions['mode'] = 'manual',
	) {
		const before = calls().length;
		const result = await runEventPics({
			emu,
			parameters,
			inputItems: input(photos),
			continueOnFail,
			mode,
		});
		return { result, calls: calls().slice(before) };
	}
	const shape = (list: StoreCall[]) => list.map((call) => `${call.method}:${call.values}`);

	it("asks the store a number of times set by the run's length, not by its number of files", async () => {
		const few = photosOf(3);
		const many = photosOf(150);
		/**
		 * The check of every "checked" entry; records of both entries of confirmed files during the
		 * run, at most one a second (HISTORY_TIMING.recordEveryMs); at the end the record of every
		 * uploaded file, the count beside it, and for a production execution (here a webhook's) one
		 * more look after the record.
		 */
		const expectShape = (made: StoreCall[], mode: 'manual' | 'webhook', n: number, ms: number) => {
			expect(shape(made)[0]).toBe(`checkProcessedAndRecord:${n}`);
			const rest = shape(made.slice(1));
			const end = [`checkProcessedAndRecord:${2 * n}`, 'getProcessedDataCount:0'];
			if (mode === 'webhook') end.push(`checkProcessedAndRecord:${2 * n}`);
			for (const call of end) rest.splice(rest.indexOf(call), 1);
			const batches = rest.map((call) => Number(call.split(':')[1]));
			expect(rest.every((call) => call.startsWith('checkProcessedAndRecord:'))).toBe(true);
			expect(batches.reduce((sum, values) => sum + values, 0)).toBeLessThanOrEqual(2 * n);
			expect(batches.length).toBeLessThanOrEqual(Math.floor(ms / 1000));
		};
		for (const photos of [few, many]) {
			engine.clearDedupStore();
			const n = photos.length;
			let startedAt = Date.now();
			const fresh = await run(photos);
			expect(fresh.result.items.every((item) => item.json.statusCode === 200)).toBe(true);
			expectShape(fresh.calls, 'manual', n, Date.now() - startedAt);

			// known files: the "checked" entries, then the "uploaded" entries, nothing written
			const again = await run(photos);
			expect(again.result.items.every((item) => item.json.outcome === 'skipped')).toBe(true);
			expect(shape(again.calls)).toEqual([
				`checkProcessedAndRecord:${n}`,
				`checkProcessedAndRecord:${n}`,
			]);

			// new files on a history the node wrote
			for (const mode of ['manual', 'webhook'] as const) {
				startedAt = Date.now();
				const more = await run(photosOf(n), skipping(), false, mode);
				expectShape(more.calls, mode, n, Date.now() - startedAt);
			}
		}
		expect(emu.uploads).toHaveLength(3 * (few.length + many.length));
	});

	it('records confirmed files during the run, in batches: slow uploads are known before the run ends', async () => {
		emu.addFault({ endpoint: 'put', kind: 'delay', ms: 400 });
		const photos = photosOf(8);
		const { result, calls: made } = await run(photos, skipping({ concurrency: 1 }));
		expect(result.items.every((item) => item.json.outcome === 'uploaded')).toBe(true);
		// the check, then batches of 2 entries per confirmed file before the final record of all 16
		const records = shape(made).filter((call) => call.startsWith('checkProcessedAndRecord:'));
		expect(records[0]).toBe('checkProcessedAndRecord:8');
		const batches = records.slice(1, -1).map((call) => Number(call.split(':')[1]));
		expect(batches.length).toBeGreaterThanOrEqual(2);
		expect(batches.every((values) => values > 0 && values < 16 && values % 2 === 0)).toBe(true);
		expect(records.at(-1)).toBe('checkProcessedAndRecord:16');
	});

	it('says in the output when the run began the history, and only then', async () => {
		const NEW =
			"EventPics: this run began the workflow's history of uploaded files (Skip Files Uploaded Before). Files uploaded before the option was on are not in it, so any of them in this run went up again.";
		const first = await run(photosOf(2));
		expect(first.result.nodeHints.map((hint) => [hint.message, hint.type])).toEqual([
			[NEW, 'info'],
			['EventPics: 2 files uploaded.', 'info'],
		]);
		const next = await run(photosOf(2));
		expect(next.result.nodeHints.map((hint) => hint.message)).toEqual([
			'EventPics: 2 files uploaded.',
		]);
		// a history emptied (n8n's store cleared) is new again
		engine.clearDedupStore();
		const again = await run(photosOf(1));
		expect(again.result.nodeHints[0].message).toBe(NEW);
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
		expect(stored(uploaded(keyOf(photos[0])))).toBe(false);
		expect(stored(checked(keyOf(photos[0])))).toBe(false);
		for (const photo of photos.slice(1)) {
			expect(stored(uploaded(keyOf(photo)))).toBe(true);
			expect(stored(checked(keyOf(photo)))).toBe(true);
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
		writeRow(key, [checked(keyOf(photo))]);
		const { result, calls: made } = await run([photo]);
		expect(result.items[0].json).toMatchObject({ statusCode: 200 });
		// the question about the "uploaded" entry wrote it: it was taken back at once
		expect(shape(made.slice(0, 3))).toEqual([
			'checkProcessedAndRecord:1',
			'checkProcessedAndRecord:1',
			'removeProcessed:1',
		]);
		expect(stored(uploaded(keyOf(photo)))).toBe(true);
	});

	it('does not read histories of an older format: their files go up again, never skipped', async () => {
		const [old] = photosOf(1);
		await run(photosOf(1));
		const { key } = storedRow();
		// issue 20's history (a mark, "checked:<key>" and the key itself, no account)
		writeRow(key, ['eventpics:history:2', `checked:${keyOf(old)}`, keyOf(old)]);
		const { result } = await run([old]);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['uploaded']);
		expect(stored(uploaded(keyOf(old)))).toBe(true);
	});

	it('keeps apart the accounts and servers: after switching the Base URL or the API key, the files go up there', async () => {
		const photos = photosOf(2);
		const asked = jest.spyOn(inMemoryDeduplicator, 'checkProcessedAndRecord');
		const server2 = await startEmulator();
		try {
			const outcomes = (result: RunResult) => result.items.map((item) => item.json.outcome);
			expect(outcomes((await run(photos)).result)).toEqual(['uploaded', 'uploaded']);
			// another server (another Base URL), the same key and event
			const elsewhere = { emu: server2, parameters: skipping(), inputItems: input(photos) };
			expect(outcomes(await runEventPics(elsewhere))).toEqual(['uploaded', 'uploaded']);
			expect(server2.uploads).toHaveLength(2);
			// another account on the first server, with an event of the same link ID and album
			(emu as TriggerEmulator).addEvent({
				linkId: 'wedding-anna-ben',
				title: 'Wedding (second account)',
				albums: [{ id: 'booth', title: 'Photo booth' }],
				apiKey: emu.otherApiKey,
			});
			const otherKey = { ...elsewhere, emu, apiKey: emu.otherApiKey };
			expect(outcomes(await runEventPics(otherKey))).toEqual(['uploaded', 'uploaded']);
			expect(emu.uploads).toHaveLength(4);
			// each of them knows its own files
			expect(outcomes((await run(photos)).result)).toEqual(['skipped', 'skipped']);
			expect(outcomes(await runEventPics(elsewhere))).toEqual(['skipped', 'skipped']);
			expect(outcomes(await runEventPics(otherKey))).toEqual(['skipped', 'skipped']);
			expect(emu.uploads.length + server2.uploads.length).toBe(6);
			// the store is never given an API key
			const values = asked.mock.calls.flatMap(([items]) => items.map(String));
			expect(values.length).toBeGreaterThan(0);
			expect(values.filter((v) => v.includes(emu.apiKey) || v.includes(emu.otherApiKey))).toEqual(
				[],
			);
		} finally {
			asked.mockRestore();
			await server2.close();
		}
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
			'Input item 0 of this run has the same file for this event and album, and it was uploaded (Skip Files Uploaded Before).',
		);
		engine.clearDedupStore();
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
		const retried = await run([other, other], skipping({ concurrency: 1 }), true);
		expect(retried.result.items.map((item) => item.json.outcome)).toEqual(['failed', 'uploaded']);
		expect(emu.uploads).toHaveLength(3);
	});

	it('a history row that a Remove Duplicates node keeps in another mode: the error names it and the fix, not the database', async () => {
		await run(photosOf(1));
		const { key } = storedRow();
		engine.dedupStoreRows.set({ [key]: JSON.stringify({ mode: 'latestIncrementalKey', data: 7 }) });
		const result = await runEventPics({
			emu,
			parameters: skipping(),
			inputItems: input(photosOf(1)),
		});
		expect(result.nodeError?.message).toBe(
			"This workflow's deduplication history is kept in another mode by another node (Skip Files Uploaded Before)",
		);
		expect(result.nodeError?.description).toMatch(/Remove Duplicates node of this workflow/);
		expect(result.nodeError?.description).not.toMatch(/write to its database/);
	});

	it('with 200,000 entries (its cap): skips known files, forgets the oldest past the cap, warns', async () => {
		const [oldest, known] = photosOf(2);
		const fresh = photosOf(10);
		await run(photosOf(1));
		const { key } = storedRow();
		const filler = Array.from({ length: 99_997 }, (_, i) => `wedding-anna-ben/booth/sha256:f${i}`);
		writeRow(key, [
			...[keyOf(oldest), ...filler, keyOf(known)].flatMap((k) => [checked(k), uploaded(k)]),
			checked('wedding-anna-ben/booth/sha256:never-confirmed'),
		]);
		// 99,999 files (two entries each) and a file checked but never confirmed: one short of the cap
		expect(storedRow().data).toHaveLength(199_999);
		const { result, calls: made } = await run([known, ...fresh]);
		expect(result.items.map((item) => item.json.outcome)).toEqual([
			'skipped',
			...fresh.map(() => 'uploaded'),
		]);
		// the check, the question about the known file's "uploaded" entry, then records: batches of
		// confirmed files during the run (two entries each), the end record of all ten, and the count
		expect(shape(made.slice(0, 2))).toEqual([
			'checkProcessedAndRecord:11',
			'checkProcessedAndRecord:1',
		]);
		const rest = shape(made.slice(2));
		expect(rest.slice(-2).sort()).toEqual([
			'checkProcessedAndRecord:20',
			'getProcessedDataCount:0',
		]);
		for (const batch of rest.slice(0, -2))
			expect(batch).toMatch(/^checkProcessedAndRecord:([2468]|1[02468])$/);
		const warning = result.items[1].json.warnings as string[];
		expect(warning).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^This workflow's history of uploaded files \(Skip Files Uploaded Before\) holds 200,000 of 200,000 entries, two per file\./,
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
		expect(stored(uploaded(keyOf(oldest)))).toBe(false);
		const again = await run([oldest]);
		expect(again.result.items[0].json).toMatchObject({ statusCode: 200 });
	});
});
