import type { IDataObject } from 'n8n-workflow';

import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { clearDedupStore, dedupStoreCalls, dedupStoreRows } = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { inMemoryDeduplicator } = require('../../tools/engine/dedup-store') as {
	inMemoryDeduplicator: { checkProcessedAndRecord: Record };
};

type Record = (
	items: string[],
	scope: string,
	context: IDataObject,
	options: IDataObject,
) => Promise<{ new: string[]; processed: string[] }>;

/**
 * n8n's processed-data store rewrites a node's whole list on every call, without a lock. In queue
 * mode a second worker that read the list just before this one recorded its files can write its
 * older copy back: the keys are gone and the next run would upload the files again. `npm run
 * test:queue` showed it with two real workers (168 of 1000 files uploaded twice, before the node
 * looked again). Here that older copy is written back right after the node's end-of-run record.
 * A run from the editor (or `n8n execute`) looks again only when its record shows such a write.
 */
describe('Skip Files Uploaded Before when another worker writes over the record', () => {
	const emu = useEmulator();
	const photos = [0, 1, 2].map(() => mediaBytes(2000));
	const input = () =>
		photos.map((photo, i) => ({
			json: {},
			binary: { data: binaryFromBuffer(photo, { fileName: `w-${i}.jpg` }) },
		}));
	const parameters = uploadParameters({
		takenAt: { source: 'none' },
		options: { skipUploaded: { settings: { identifyBy: 'content' } } },
	});
	beforeEach(() => clearDedupStore());
	afterEach(() => jest.restoreAllMocks());

	/**
	 * Makes the store write an older copy of the row back (another execution's write) right after
	 * the calls `strikes` picks; returns how many times it did.
	 */
	function overwriteAfter(strikes: (items: string[], added: number) => boolean) {
		const real = inMemoryDeduplicator.checkProcessedAndRecord.bind(inMemoryDeduplicator) as Record;
		const done = { count: 0 };
		jest.spyOn(inMemoryDeduplicator, 'checkProcessedAndRecord').mockImplementation((async (
			items,
			scope,
			context,
			options,
		) => {
			const olderCopy = dedupStoreRows.get();
			const result = await real(items, scope, context, options);
			if (strikes(items, result.new.length)) {
				done.count++;
				dedupStoreRows.set(olderCopy);
			}
			return result;
		}) as Record);
		return done;
	}

	// the check asks about the 3 files' "checked" entries; the end-of-run record (and each look)
	// writes for each of them its "checked" entry and its "uploaded" entry
	const isCheck = (items: string[]) =>
		items.length === 3 && items.every((item) => item.startsWith('checked:'));
	const isEndRecord = (items: string[]) =>
		items.length === 6 && items.some((item) => item.startsWith('uploaded:'));
	const records = () =>
		dedupStoreCalls().filter(
			(call: { method: string; values: number }) =>
				call.method === 'checkProcessedAndRecord' && call.values === 6,
		);

	/** The first run: its 3 files all stored. */
	async function uploadAll(mode?: 'webhook') {
		const first = await runEventPics({ emu, parameters, inputItems: input(), mode });
		expect(first.items.map((item) => item.json.statusCode)).toEqual([200, 200, 200]);
	}

	async function expectAllSkippedNextRun() {
		jest.restoreAllMocks();
		const second = await runEventPics({ emu, parameters, inputItems: input() });
		expect(second.items.map((item) => item.json.outcome)).toEqual([
			'skipped',
			'skipped',
			'skipped',
		]);
		expect(emu.uploads).toHaveLength(3);
	}

	it('looks again after its record, records the lost keys again, and the next run skips every file', async () => {
		// a production execution (a webhook's): other executions may write the list at any time
		const struck = overwriteAfter(
			(items, added) => isEndRecord(items) && added > 0 && struck.count === 0,
		);
		await uploadAll('webhook');
		expect(struck.count).toBe(1);
		// the end-of-run record, a look that found the 3 keys missing, a look that found none
		expect(records()).toHaveLength(3);
		await expectAllSkippedNextRun();
	});

	it('in a run from the editor, looks again when its record finds that something else wrote over the run', async () => {
		// a run from the editor looks only on evidence: here another writer wrote over its check
		// (the 3 "checked" entries) and then over its end-of-run record
		const struck = overwriteAfter(
			(items, added) =>
				(isCheck(items) && struck.count === 0) ||
				(isEndRecord(items) && added > 0 && struck.count === 1),
		);
		await uploadAll();
		expect(struck.count).toBe(2);
		expect(records()).toHaveLength(3);
		await expectAllSkippedNextRun();
	});

	it('in a run from the editor with no sign of another writer, records once and does not look', async () => {
		await uploadAll();
		expect(records()).toHaveLength(1);
		await expectAllSkippedNextRun();
	});
});
