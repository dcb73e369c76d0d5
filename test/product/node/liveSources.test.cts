import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RunResult } from './fixture.cts';
import {
	binaryFromBuffer,
	byId,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const BOOTH = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));

const byContent = { skipUploaded: { settings: { identifyBy: 'content' } } };
const byFileId = {
	skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } },
};
const photo = (bytes: Buffer, name: string, id = name) => ({
	json: { id },
	binary: { data: binaryFromBuffer(bytes, { fileName: name, mimeType: 'image/jpeg' }) },
});
const outcomes = (result: RunResult) => result.items.map((item) => item.json.outcome);
const keepNew = (extra: object = {}) => ({
	resource: 'photo',
	operation: 'keepNew',
	event: byId('wedding-anna-ben'),
	album: byId('booth'),
	fileId: '={{ $json.id }}',
	...extra,
});

/**
 * Sources that change while the workflow runs: a photo still being written when it is read, runs
 * of one workflow that overlap, a scheduled import that should read only what is new.
 */
describe('Photo > Upload and Keep New on live sources', () => {
	const emu = useEmulator();
	beforeEach(() => {
		engine.clearDedupStore();
	});

	it('a photo cut short is not uploaded nor recorded; once whole, the next run uploads it', async () => {
		const parameters = uploadParameters({ options: byContent });
		const cut = BOOTH.subarray(0, BOOTH.length - 700);
		const first = await runEventPics({
			emu,
			parameters,
			inputItems: [photo(cut, 'booth-0001.jpg')],
		});
		expect(first.status).toBe('success');
		expect(first.items[0].json).toMatchObject({
			outcome: 'incomplete',
			whole: false,
			bytes: cut.length,
			reason:
				'"booth-0001.jpg" is cut short: it ends before the JPEG end marker (JPEG). It was not uploaded: if it is still being written, a later run takes it; if it is damaged, replace it.',
		});
		expect(first.nodeHints.map((hint) => hint.message)).toContain(
			'EventPics: 0 files uploaded, 1 cut short, not uploaded (see "reason").',
		);
		expect(emu.requests.filter((request) => request.server === 'storage')).toEqual([]);
		const whole = await runEventPics({
			emu,
			parameters,
			inputItems: [photo(BOOTH, 'booth-0001.jpg')],
		});
		expect(whole.items[0].json).toMatchObject({ outcome: 'uploaded', whole: true });
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0].size).toBe(BOOTH.length);
	});

	it('"Any File" uploads a file as it is, cut short or not', async () => {
		const cut = BOOTH.subarray(0, 5000);
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters({ options: { fileTypes: 'any' } }),
			inputItems: [photo(cut, 'part.jpg')],
		});
		expect(items[0].json).toMatchObject({ outcome: 'uploaded', whole: false });
	});

	it('two runs of the workflow that overlap upload each file once', async () => {
		// the storage takes a while, so the second run starts while the first one's files are in flight
		emu.addFault({ endpoint: 'put', kind: 'delay', ms: 600 });
		const files = Array.from({ length: 4 }, (_, i) => photo(mediaBytes(5000), `o-${i}.jpg`));
		const parameters = uploadParameters({ options: { ...byContent, concurrency: 4 } });
		const first = runEventPics({ emu, parameters, inputItems: files, mode: 'trigger' });
		while (emu.requests.filter((request) => request.server === 'storage').length < 4)
			await new Promise((resolve) => setTimeout(resolve, 10));
		const second = await runEventPics({ emu, parameters, inputItems: files, mode: 'trigger' });
		expect(outcomes(await first)).toEqual(['uploaded', 'uploaded', 'uploaded', 'uploaded']);
		expect(outcomes(second)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
		expect(second.items[0].json.reason).toMatch(
			/^Execution \d+ of this workflow uploaded the same file to this event and album while this one ran \(Skip Files Uploaded Before\)\.$/,
		);
		expect(emu.uploads).toHaveLength(4);
		// and a run after both knows them from the history
		const third = await runEventPics({ emu, parameters, inputItems: files });
		expect(outcomes(third)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
		expect(emu.uploads).toHaveLength(4);
	});

	it('a file another run failed to upload is tried by the run that waited for it', async () => {
		emu.addFault({ endpoint: 'put', kind: 'delay', ms: 400, times: 1 });
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
		const parameters = uploadParameters({ options: { ...byContent, concurrency: 1 } });
		const files = [photo(mediaBytes(4000), 'f.jpg')];
		const first = runEventPics({ emu, parameters, inputItems: files, continueOnFail: true });
		await new Promise((resolve) => setTimeout(resolve, 100));
		const second = await runEventPics({ emu, parameters, inputItems: files });
		expect(outcomes(await first)).toEqual(['failed']);
		expect(outcomes(second)).toEqual(['uploaded']);
		expect(emu.uploads).toHaveLength(1);
	});

	describe('Photo > Keep New', () => {
		const items = ['a', 'b', 'c'].map((id) => photo(mediaBytes(3000), `${id}.jpg`, id));

		it('passes every item while nothing is uploaded, then only those not uploaded by File ID', async () => {
			const first = await runEventPics({ emu, parameters: keepNew(), inputItems: items });
			expect(first.items.map((item) => item.json.id)).toEqual(['a', 'b', 'c']);
			expect(first.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			// the binary comes through as it came
			expect(first.items[0].binary?.data.fileName).toBe('a.jpg');
			// the first run says the history begins here (the Upload after it no longer can)
			expect(first.nodeHints.map((hint) => hint.message)).toEqual([
				"EventPics: this run began the workflow's history of uploaded files. Files uploaded before an Upload skipped by File ID are not in it, so they all pass as new.",
				'EventPics: 3 of 3 files are new.',
			]);

			emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
			const upload = await runEventPics({
				emu,
				parameters: uploadParameters({ options: { ...byFileId, concurrency: 1 } }),
				inputItems: items,
				continueOnFail: true,
			});
			expect(outcomes(upload)).toEqual(['failed', 'uploaded', 'uploaded']);

			const next = await runEventPics({ emu, parameters: keepNew(), inputItems: items });
			expect(next.items.map((item) => item.json.id)).toEqual(['a']);
			expect(next.nodeHints.map((hint) => hint.message)).toEqual([
				'EventPics: 1 of 3 files are new; 2 left out (uploaded before).',
			]);
			// another album is another history
			const elsewhere = await runEventPics({
				emu,
				parameters: keepNew({ album: byId('ceremony') }),
				inputItems: items,
			});
			expect(elsewhere.items).toHaveLength(3);
		});

		it('leaves out a file that an execution of this process is uploading right now', async () => {
			emu.addFault({ endpoint: 'put', kind: 'delay', ms: 600 });
			const upload = runEventPics({
				emu,
				parameters: uploadParameters({ options: byFileId }),
				inputItems: [items[0]],
			});
			while (emu.requests.filter((request) => request.server === 'storage').length < 1)
				await new Promise((resolve) => setTimeout(resolve, 10));
			const during = await runEventPics({ emu, parameters: keepNew(), inputItems: items });
			expect(during.items.map((item) => item.json.id)).toEqual(['b', 'c']);
			expect(outcomes(await upload)).toEqual(['uploaded']);
		});

		it('passes a file whose upload in another execution does not arrive (it waits for that upload)', async () => {
			// the first answer asks to try again, the second refuses: the upload fails after a while
			emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 503, times: 1 });
			emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
			const upload = runEventPics({
				emu,
				parameters: uploadParameters({ options: byFileId }),
				inputItems: [items[0]],
				continueOnFail: true,
			});
			while (emu.requests.filter((request) => request.url.startsWith('/getuploadurl')).length < 1)
				await new Promise((resolve) => setTimeout(resolve, 10));
			const during = await runEventPics({ emu, parameters: keepNew(), inputItems: items });
			expect(outcomes(await upload)).toEqual(['failed']);
			expect(during.items.map((item) => item.json.id)).toEqual(['a', 'b', 'c']);
			expect(
				emu.requests.filter((request) => request.url.startsWith('/getuploadurl')),
			).toHaveLength(2);
		});

		it('a File ID of {{ $json.<path> }}, read from the item itself, names a file as n8n evaluates it', async () => {
			const withId = (id: unknown, name: string) => ({
				json: { file: { id } },
				binary: photo(mediaBytes(3000), name).binary,
			});
			const uploaded = [
				withId(7, 'n.jpg'),
				withId(' seven ', 's.jpg'),
				withId({ b: 1, a: 2 }, 'o.jpg'),
			];
			const byNested = {
				skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json["file"]["id"] }}' } },
			};
			const upload = await runEventPics({
				emu,
				parameters: uploadParameters({ options: byNested }),
				inputItems: uploaded,
			});
			expect(outcomes(upload)).toEqual(['uploaded', 'uploaded', 'uploaded']);
			const next = await runEventPics({
				emu,
				parameters: keepNew({ fileId: '={{ $json.file.id }}' }),
				inputItems: [
					...uploaded,
					withId('7', 'text.jpg'),
					withId(8, 'new.jpg'),
					withId(undefined, 'none.jpg'),
				],
				continueOnFail: true,
			});
			// 7 and "7" are one File ID; the missing one is n8n's to evaluate, and empty
			expect(next.items.map((item) => item.json.file ?? item.json.error)).toEqual([
				{ id: 8 },
				'The File ID is empty',
			]);
		});

		it('a file a kill left checked but not uploaded is not lost to calls of other executions at the same time', async () => {
			// a Keep New that passed a file leaves its "checked" entry, as a kill during its upload does;
			// then Keep New asks about it (writing an "uploaded" entry for a moment, then taking it back)
			// while uploads of other files write the history: none may write that entry back for good
			for (let round = 0; round < 5; round++) {
				const cut = photo(mediaBytes(3000), `cut-${round}.jpg`, `cut-${round}`);
				await runEventPics({ emu, parameters: keepNew(), inputItems: [cut] });
				const others = Array.from({ length: 3 }, (_, i) =>
					photo(mediaBytes(3000), `o-${round}-${i}.jpg`, `o-${round}-${i}`),
				);
				const [asked] = await Promise.all([
					runEventPics({ emu, parameters: keepNew(), inputItems: [cut], mode: 'trigger' }),
					...others.map((other) =>
						runEventPics({
							emu,
							parameters: uploadParameters({ options: byFileId }),
							inputItems: [other],
							mode: 'trigger',
						}),
					),
				]);
				expect(asked.items.map((item) => item.json.id)).toEqual([`cut-${round}`]);
				const upload = await runEventPics({
					emu,
					parameters: uploadParameters({ options: byFileId }),
					inputItems: [cut],
				});
				expect([round, outcomes(upload)]).toEqual([round, ['uploaded']]);
			}
		});

		it('asks EventPics nothing when every file is known (their event and album were checked when they went up)', async () => {
			const upload = await runEventPics({
				emu,
				parameters: uploadParameters({ options: byFileId }),
				inputItems: items,
			});
			expect(outcomes(upload)).toEqual(['uploaded', 'uploaded', 'uploaded']);
			emu.reset();
			const known = await runEventPics({ emu, parameters: keepNew(), inputItems: items });
			expect(known.items).toEqual([]);
			expect(emu.requests).toEqual([]);
			// one new file: its event and album are checked, with one question for the run
			const more = [...items, photo(mediaBytes(3000), 'd.jpg', 'd')];
			const next = await runEventPics({ emu, parameters: keepNew(), inputItems: more });
			expect(next.items.map((item) => item.json.id)).toEqual(['d']);
			expect(emu.requests.map((request) => request.url.split('?')[0])).toEqual([
				'/geteventsandalbums',
			]);
		});

		it('an empty File ID or an event of another key is an error naming the item; Continue On Fail keeps the others', async () => {
			const empty = await runEventPics({
				emu,
				parameters: keepNew(),
				inputItems: [{ json: { id: '' } }],
			});
			expect(empty.nodeError?.message).toBe('The File ID is empty');
			expect(empty.nodeError?.description).toContain(
				'the same the Upload\'s "Skip Files Uploaded Before" uses',
			);
			const mixed = await runEventPics({
				emu,
				parameters: keepNew({ event: '={{ $json.event }}' }),
				inputItems: [
					{ json: { id: 'x', event: 'old-party' } },
					{ json: { id: 'y', event: 'wedding-anna-ben' } },
				],
				continueOnFail: true,
			});
			expect(mixed.items.map((item) => [item.json.id ?? null, item.json.error ?? null])).toEqual([
				[
					null,
					`The event "old-party" is not one of this API key's events; its events are "Anna & Ben's Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)`,
				],
				['y', null],
			]);
		});
	});
});
