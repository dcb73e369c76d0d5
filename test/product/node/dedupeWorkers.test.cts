import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { Emulator } from './fixture.cts';
import { binaryFromBuffer, runEventPics, startEmulator, uploadParameters } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { clearDedupStore } = require('../../tools/engine');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { inMemoryDeduplicator } = require('../../tools/engine/dedup-store') as {
	inMemoryDeduplicator: {
		checkProcessedAndRecord: Record;
		removeProcessed: (...args: Parameters<Record>) => Promise<void>;
	};
};

type Record = (
	items: string[],
	scope: string,
	context: IDataObject,
	options: IDataObject,
) => Promise<{ new: string[]; processed: string[] }>;

/**
 * n8n's processed-data store rewrites a node's whole list on every call, without a lock. In queue
 * mode a second worker that read the list just before this one recorded a file can write its older
 * copy back: the file's key is gone and the next run would upload the file again. `npm run
 * test:queue` showed it with two real workers (168 of 1000 files uploaded twice). Here the store
 * loses every key right after it is first recorded, as that older copy would make it.
 */
describe('Skip Files Uploaded Before when another worker writes over the record', () => {
	let emu: Emulator;
	const photos = [0, 1, 2].map(() => randomBytes(2000));
	const input = () =>
		photos.map((photo, i) => ({
			json: {},
			binary: { data: binaryFromBuffer(photo, { fileName: `w-${i}.jpg` }) },
		}));
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	afterEach(() => jest.restoreAllMocks());

	it('records the lost keys again at the end of the run, so the next run skips every file', async () => {
		clearDedupStore();
		const real = inMemoryDeduplicator.checkProcessedAndRecord.bind(inMemoryDeduplicator) as Record;
		const lost = new Set<string>();
		const restored: string[] = [];
		jest.spyOn(inMemoryDeduplicator, 'checkProcessedAndRecord').mockImplementation((async (
			items,
			scope,
			context,
			options,
		) => {
			const result = await real(items, scope, context, options);
			for (const key of result.new) {
				if (lost.has(key)) restored.push(key);
				else {
					lost.add(key);
					await inMemoryDeduplicator.removeProcessed([key], scope, context, options);
				}
			}
			return result;
		}) as Record);

		const parameters = uploadParameters({ takenAtMode: 'none', options: { skipDuplicates: true } });
		const first = await runEventPics({ emu, parameters, inputItems: input() });
		expect(first.items.map((item) => item.json.statusCode)).toEqual([200, 200, 200]);
		expect(restored.sort()).toEqual([...lost].sort());
		expect(restored).toHaveLength(3);

		jest.restoreAllMocks();
		const second = await runEventPics({ emu, parameters, inputItems: input() });
		expect(second.items.map((item) => item.json.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
		expect(emu.uploads).toHaveLength(3);
	});
});
