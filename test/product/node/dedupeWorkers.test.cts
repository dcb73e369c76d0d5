import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Emulator } from './fixture.cts';
import { binaryFromBuffer, runEventPics, startEmulator, uploadParameters } from './fixture.cts';

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
 */
describe('Skip Files Uploaded Before when another worker writes over the record', () => {
	let emu: Emulator;
	const photos = [0, 1, 2].map(() => randomBytes(2000));
	const input = () =>
		photos.map((photo, i) => ({
			json: {},
			binary: { data: binaryFromBuffer(photo, { fileName: `w-${i}.jpg` }) },
		}));
	const parameters = uploadParameters({ takenAtMode: 'none', options: { skipDuplicates: true } });
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	afterEach(() => jest.restoreAllMocks());

	it('looks again after its record, records the lost keys again, and the next run skips every file', async () => {
		clearDedupStore();
		const real = inMemoryDeduplicator.checkProcessedAndRecord.bind(inMemoryDeduplicator) as Record;
		let overwritten = false;
		jest.spyOn(inMemoryDeduplicator, 'checkProcessedAndRecord').mockImplementation((async (
			items,
			scope,
			context,
			options,
		) => {
			const olderCopy = dedupStoreRows.get();
			const result = await real(items, scope, context, options);
			// the end-of-run record: the history's mark, and for each of the 3 files its "checked" entry
			// and its key (a batch during the run, on a slow machine, holds fewer)
			const recordsUploads = items.length === 7 && items.includes('eventpics:history:2');
			if (!overwritten && recordsUploads && result.new.length > 0) {
				overwritten = true; // the other worker's write lands just after this record
				dedupStoreRows.set(olderCopy);
			}
			return result;
		}) as Record);

		const first = await runEventPics({ emu, parameters, inputItems: input() });
		expect(first.items.map((item) => item.json.statusCode)).toEqual([200, 200, 200]);
		expect(overwritten).toBe(true);
		const records = dedupStoreCalls().filter(
			(call: { method: string; values: number }) =>
				call.method === 'checkProcessedAndRecord' && call.values === 7,
		);
		// the end-of-run record, a look that found the 3 keys missing, a look that found none
		expect(records).toHaveLength(3);

		jest.restoreAllMocks();
		const second = await runEventPics({ emu, parameters, inputItems: input() });
		expect(second.items.map((item) => item.json.outcome)).toEqual([
			'skipped',
			'skipped',
			'skipped',
		]);
		expect(emu.uploads).toHaveLength(3);
	});
});
