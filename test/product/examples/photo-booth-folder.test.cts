import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

import type { Emulator } from '../node/fixture.cts';
import { startEmulator } from '../node/fixture.cts';
import {
	clearDedupStore,
	example,
	nodeNamed,
	runExample,
	STAND_IN_MESSAGE,
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

/** What Read/Write Files from Disk (read) outputs per file: the file stored, its facts in json. */
async function readFilesOutput(files: string[]) {
	return await Promise.all(
		files.map(async (file) => {
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
			};
		}),
	);
}

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

	const run = async (files: string[]) =>
		await runExample(workflow, {
			emu,
			startNode: 'Run now',
			pinData: { 'Run now': [{ json: {} }], 'Read booth photos': await readFilesOutput(files) },
		});

	it('is wired as documented: a schedule and a manual trigger read the folder, found files go to EventPics', () => {
		const read = nodeNamed(workflow, 'Read booth photos');
		expect(read).toMatchObject({
			type: 'n8n-nodes-base.readWriteFile',
			onError: 'continueErrorOutput',
			parameters: {
				operation: 'read',
				fileSelector: '/srv/booth/outbox/*.{jpg,jpeg,png,heic,JPG,JPEG,PNG,HEIC}',
			},
		});
		expect(workflow.connections['Every minute'].main).toEqual([
			[{ node: 'Read booth photos', type: 'main', index: 0 }],
		]);
		expect(workflow.connections['Run now'].main).toEqual([
			[{ node: 'Read booth photos', type: 'main', index: 0 }],
		]);
		// found files leave by the first output; "No file(s) found" by the second, which goes nowhere
		expect(workflow.connections['Read booth photos'].main).toEqual([
			[{ node: 'Upload to EventPics', type: 'main', index: 0 }],
			[],
		]);
		expect(nodeNamed(workflow, 'Upload to EventPics').parameters).toMatchObject({
			resource: 'photo',
			operation: 'upload',
			binaryPropertyName: 'data',
			options: { skipDuplicates: true },
		});
	});

	it('uploads every photo of the folder into the event and album, byte for byte', async () => {
		const result = await run(PHOTOS);

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		const output = result.outputs['Upload to EventPics'].map((item) => item.json);
		expect(output).toHaveLength(PHOTOS.length);
		// the example keeps Simplify on: the fields a user acts on
		expect(output[4]).toEqual({
			outcome: 'uploaded',
			fileName: 'first-dance.heic',
			eventTitle: "Anna & Ben's Wedding",
			albumTitle: 'Photo booth',
			takenAt: '2026-06-20T16:10:30-04:00',
			bytes: readFileSync(PHOTOS[4]).length,
			warnings: [],
		});
		expect(output[2]).toMatchObject({ fileName: 'booth-0003.jpg', takenAt: null });
		expect(output[2]).not.toHaveProperty('reason');
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

	it('skips the photos it uploaded before when the folder is read again, and uploads only the new one', async () => {
		await run(PHOTOS.slice(0, 3));
		expect(emu.uploads).toHaveLength(3);

		const again = await run(PHOTOS.slice(0, 4));

		const output = again.outputs['Upload to EventPics'].map((item) => item.json);
		expect(output.map((json) => [json.fileName, json.outcome === 'skipped'])).toEqual([
			['booth-0001.jpg', true],
			['booth-0002.jpg', true],
			['booth-0003.jpg', true],
			['confetti.png', false],
		]);
		// uploads run concurrently: the emulator stores them in any order
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual([
			'booth-0001.jpg',
			'booth-0002.jpg',
			'booth-0003.jpg',
			'confetti.png',
		]);
	});

	it('reaches no n8n node it does not pin: the stand-ins would fail the run', async () => {
		const unpinned = await runExample(workflow, {
			emu,
			startNode: 'Run now',
			pinData: { 'Run now': [{ json: {} }] },
		});

		expect(unpinned.status).toBe('error');
		expect(unpinned.text()).toContain(`n8n-nodes-base.readWriteFile ${STAND_IN_MESSAGE}`);
		expect(emu.uploads).toHaveLength(0);
	});
});
