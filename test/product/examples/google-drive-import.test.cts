import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Emulator } from '../node/fixture.cts';
import { startEmulator } from '../node/fixture.cts';
import { clearDedupStore, example, nodeNamed, runExample, storedFile } from './run-example.cts';

const SAMPLES = join(__dirname, '..', '..', 'fixtures', 'samples');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

interface DriveFile {
	id: string;
	name: string;
	mimeType: string;
	sample: string;
}

const FOLDER: DriveFile[] = [
	{ id: '1a-booth-1', name: 'booth-0001.jpg', mimeType: 'image/jpeg', sample: 'booth-0001.jpg' },
	{ id: '1b-confetti', name: 'confetti.png', mimeType: 'image/png', sample: 'confetti.png' },
	{ id: '1c-dance', name: 'IMG_2044.HEIC', mimeType: 'image/heic', sample: 'first-dance.heic' },
];

/**
 * Pinned output of the two Google Drive nodes, shaped as n8n 2.41's Google Drive v3 gives it:
 * search with fields id, name, mimeType → one item per file; download → the same json, the file in
 * binary "data" named after the Drive file.
 */
async function drivePins(files: DriveFile[]) {
	const listed = files.map(({ id, name, mimeType }) => ({ json: { id, name, mimeType } }));
	const downloaded = await Promise.all(
		files.map(async ({ id, name, mimeType, sample }) => ({
			json: { id, name, mimeType },
			binary: { data: await storedFile(join(SAMPLES, sample), { fileName: name, mimeType }) },
		})),
	);
	return {
		'Every 15 minutes': [{ json: { timestamp: '2026-06-20T18:30:00.000+02:00' } }],
		'List photos in folder': listed,
		'Download photo': downloaded,
	};
}

describe('example: scheduled import from Google Drive', () => {
	const workflow = example('google-drive-import');
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator();
	});
	afterAll(async () => await emu.close());
	beforeEach(() => {
		emu.reset();
		clearDedupStore();
	});

	/** The workflow with Simplify off on its EventPics node: every field of the output. */
	const simplifyOff = (source: typeof workflow): typeof workflow => {
		const copy = JSON.parse(JSON.stringify(source)) as typeof workflow;
		nodeNamed(copy, 'Upload to EventPics').parameters.simplify = false;
		return copy;
	};

	const run = async (files: DriveFile[]) =>
		await runExample(workflow, {
			emu,
			startNode: 'Every 15 minutes',
			pinData: await drivePins(files),
		});

	it('lists only images and videos of one folder, downloads each by id, and skips by Drive file id', () => {
		expect(nodeNamed(workflow, 'List photos in folder').parameters).toMatchObject({
			resource: 'fileFolder',
			searchMethod: 'query',
			queryString: "mimeType contains 'image/' or mimeType contains 'video/'",
			returnAll: true,
			filter: { whatToSearch: 'files', folderId: { mode: 'url' } },
			options: { fields: ['id', 'name', 'mimeType'] },
		});
		expect(nodeNamed(workflow, 'Download photo').parameters).toMatchObject({
			operation: 'download',
			fileId: { mode: 'id', value: '={{ $json.id }}' },
		});
		expect(nodeNamed(workflow, 'Upload to EventPics').parameters.options).toEqual({
			skipDuplicates: true,
			dedupeKey: '={{ $json.id }}',
		});
		expect(String(nodeNamed(workflow, 'Skip already uploaded').parameters.content)).toContain(
			'Skip already uploaded',
		);
	});

	it('uploads every photo of the folder under its Drive name, byte for byte', async () => {
		const result = await run(FOLDER);

		expect(result.error).toBeUndefined();
		expect(result.outputs['Upload to EventPics'].map((item) => item.json)).toEqual(
			FOLDER.map((file) =>
				expect.objectContaining({
					outcome: 'uploaded',
					fileName: file.name,
					eventTitle: "Anna & Ben's Wedding",
					albumTitle: 'Photo booth',
				}),
			),
		);
		// with Simplify off, each file says it is known by its Drive file id
		const full = await runExample(simplifyOff(workflow), {
			emu,
			startNode: 'Every 15 minutes',
			pinData: await drivePins(FOLDER),
		});
		expect(full.outputs['Upload to EventPics'].map((item) => item.json)).toEqual(
			FOLDER.map((file) =>
				expect.objectContaining({
					outcome: 'skipped',
					linkId: 'wedding-anna-ben',
					albumId: 'booth',
					dedupeKey: `wedding-anna-ben/booth/key:${file.id}`,
				}),
			),
		);
		expect(emu.uploads).toHaveLength(FOLDER.length);
		for (const file of FOLDER) {
			expect(emu.uploads).toContainEqual(
				expect.objectContaining({
					fileName: file.name,
					contentType: file.mimeType,
					sha256: sha256(join(SAMPLES, file.sample)),
				}),
			);
		}
	});

	it('on the next schedule uploads only the file that is new in the folder', async () => {
		await run(FOLDER.slice(0, 2));
		expect(emu.uploads).toHaveLength(2);

		const next = await run(FOLDER);

		expect(
			next.outputs['Upload to EventPics'].map((item) => [
				item.json.fileName,
				item.json.outcome === 'skipped',
			]),
		).toEqual([
			['booth-0001.jpg', true],
			['confetti.png', true],
			['IMG_2044.HEIC', false],
		]);
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual([
			'IMG_2044.HEIC',
			'booth-0001.jpg',
			'confetti.png',
		]);
	});

	it('uploads a file again when its upload failed the time before', async () => {
		// a 400 is not retried, so the run fails at once
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });
		const failed = await run(FOLDER.slice(0, 1));
		expect(failed.status).toBe('error');
		expect(failed.error).toMatchObject({ httpCode: '400' });
		expect(emu.uploads).toHaveLength(0);

		const retried = await run(FOLDER.slice(0, 1));

		expect(retried.outputs['Upload to EventPics'][0].json).toMatchObject({
			fileName: 'booth-0001.jpg',
			outcome: 'uploaded',
		});
		expect(emu.uploads.map((u) => u.fileName)).toEqual(['booth-0001.jpg']);
	});
});
