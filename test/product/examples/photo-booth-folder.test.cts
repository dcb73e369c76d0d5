import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';

import type { Emulator } from '../node/fixture.cts';
import { startEmulator } from '../node/fixture.cts';
import type { Fake } from './run-example.cts';
import {
	clearDedupStore,
	example,
	FILTER_FAKE,
	nodeNamed,
	runExample,
	storedFile,
} from './run-example.cts';

const SAMPLES = join(__dirname, '..', '..', 'fixtures', 'samples');
const PHOTOS = [
	'booth-0001.jpg',
	'booth-0002.jpg',
	'booth-0003.jpg',
	'confetti.png',
	'first-dance.heic',
].map((name) => join(SAMPLES, name));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * n8n's Read/Write Files from Disk, reading the one file its File(s) Selector names for each item, as
 * n8n 2.41's node gives it: the file stored, its facts in json.
 */
const READ_FAKE: Fake = {
	run: async (ctx) => [
		await Promise.all(
			ctx.getInputData().map(async (_, itemIndex) => {
				const file = ctx.getNodeParameter('fileSelector', itemIndex) as string;
				// as n8n's node fails on a file that is not there
				if (!existsSync(file)) throw new Error(`The file "${file}" could not be accessed.`);
				const data = await storedFile(file);
				return {
					json: {
						mimeType: data.mimeType,
						fileType: data.fileType,
						fileName: basename(file),
						fileExtension: extname(file).slice(1),
						fileSize: data.fileSize,
					},
					binary: { data },
					pairedItem: { item: itemIndex },
				};
			}),
		),
	],
};
const FAKES = { 'n8n-nodes-base.readWriteFile': READ_FAKE, 'n8n-nodes-base.filter': FILTER_FAKE };

/** What the Local File Trigger emits: one execution per file event. */
const fileEvent = (path: string, event = 'add') => [{ json: { event, path } }];

describe('example: photo booth folder to album', () => {
	const workflow = example('photo-booth-folder');
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator();
	});
	afterAll(async () => await emu.close());
	beforeEach(() => {
		emu.reset();
		clearDedupStore();
	});

	/** One execution of the trigger, for a file event. */
	const run = async (path: string, event = 'add') =>
		await runExample(workflow, {
			emu,
			startNode: 'Booth folder',
			pinData: { 'Booth folder': fileEvent(path, event) },
			fakes: FAKES,
		});
	const uploaded = (result: Awaited<ReturnType<typeof run>>) =>
		(result.outputs['Upload to EventPics'] ?? []).map((item) => item.json);

	it("watches the folder's new and changed files as documented, and saves no successful execution", () => {
		const shipped = example('photo-booth-folder', { shipped: true });
		expect(nodeNamed(shipped, 'Booth folder')).toMatchObject({
			type: 'n8n-nodes-base.localFileTrigger',
			parameters: {
				triggerOn: 'folder',
				path: '/srv/booth/outbox',
				events: ['add', 'change'],
				// without an Ignore Mode the trigger ignores every path that contains "undefined"
				options: { awaitWriteFinish: true, ignoreInitial: false, ignoreMode: 'match' },
			},
		});
		// the chain (filter, Keep New, Read, Upload) and their parameters: the runs below prove them
		// a night of saved executions would keep a copy of every photo in n8n's binary folder
		expect((shipped as unknown as { settings: object }).settings).toMatchObject({
			saveDataSuccessExecution: 'none',
		});
	});

	it('uploads each photo the trigger reports into the picked event and album, byte for byte', async () => {
		for (const file of PHOTOS) {
			const result = await run(file);
			expect(result.error).toBeUndefined();
			expect(result.status).toBe('success');
		}
		const last = await run(PHOTOS[4], 'change');
		// a file reported again (after a restart) is left out before it is read
		expect(last.outputs['Keep new photos'] ?? []).toEqual([]);
		expect(last.outputs['Read photo']).toBeUndefined();
		// what went to EventPics: the HEIC's type and its EXIF capture time; none for the undated photo
		const sent = (name: string) => emu.uploads.find((upload) => upload.fileName === name);
		expect(sent('first-dance.heic')).toMatchObject({
			contentType: 'image/heic',
			takenAt: Date.parse('2026-06-20T22:10:30+02:00'),
		});
		expect(sent('booth-0003.jpg')).toMatchObject({ takenAt: null });
		expect(emu.uploads).toHaveLength(PHOTOS.length);
		for (const file of PHOTOS) {
			expect(emu.uploads).toContainEqual(
				expect.objectContaining({
					linkId: 'wedding-anna-ben',
					albumId: 'booth',
					fileName: basename(file),
					sha256: sha256(file),
				}),
			);
		}
	});

	it('a photo still being written is not uploaded; its next change brings it whole', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'eventpics-booth-'));
		try {
			const path = join(folder, 'booth-0042.jpg');
			const whole = readFileSync(PHOTOS[0]);
			writeFileSync(path, whole.subarray(0, 4000));
			const early = await run(path);
			expect(uploaded(early)).toEqual([
				expect.objectContaining({ outcome: 'incomplete', fileName: 'booth-0042.jpg' }),
			]);
			writeFileSync(path, whole);
			const later = await run(path, 'change');
			expect(uploaded(later)).toEqual([expect.objectContaining({ outcome: 'uploaded' })]);
			expect(emu.uploads).toHaveLength(1);
			expect(emu.uploads[0].size).toBe(whole.length);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	it.each([
		['/srv/booth/outbox/IMG_0001.JPG', true],
		['/srv/booth/outbox/party/IMG_0002.heic', true],
		['/srv/booth/outbox/IMG_0003.jpg.tmp', false],
		['/srv/booth/outbox/.IMG_0004.jpg', false],
		['/srv/booth/outbox/~IMG_0005.jpg', false],
		['/srv/booth/outbox/notes.txt', false],
	])('the filter lets %s through: %s', async (path, through) => {
		const result = await run(path);
		expect((result.outputs['Photos only'] ?? []).length).toBe(through ? 1 : 0);
	});
});
