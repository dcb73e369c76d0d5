import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Emulator } from '../node/fixture.cts';
import { startEmulator } from '../node/fixture.cts';
import type { Fake } from './run-example.cts';
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
 * The two Google Drive nodes, shaped as n8n 2.41's Google Drive v3 gives them: search with fields
 * id, name, mimeType → one item per file (pinned); download → the same json, the file in binary
 * "data" named after the Drive file (a fake that downloads the item's file ID, counting downloads).
 */
function drive(files: DriveFile[]) {
	const downloads: string[] = [];
	const download: Fake = {
		run: async (ctx) => [
			await Promise.all(
				ctx.getInputData().map(async (item, itemIndex) => {
					const id = ctx.getNodeParameter('fileId', itemIndex, '', {
						extractValue: true,
					}) as string;
					const file = files.find((candidate) => candidate.id === id);
					if (!file) throw new Error(`No Drive file ${id}`);
					downloads.push(id);
					const { name, mimeType, sample } = file;
					const data = await storedFile(join(SAMPLES, sample), { fileName: name, mimeType });
					return { json: item.json, binary: { data }, pairedItem: { item: itemIndex } };
				}),
			),
		],
	};
	return {
		downloads,
		fakes: { 'n8n-nodes-base.googleDrive': download },
		pinData: {
			'Every 15 minutes': [{ json: { timestamp: '2026-06-20T18:30:00.000+02:00' } }],
			'List photos in folder': files.map(({ id, name, mimeType }) => ({
				json: { id, name, mimeType },
			})),
		},
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

	/** One scheduled run over the folder's `files`; `downloads`: the file IDs it downloaded. */
	const run = async (files: DriveFile[], from = workflow) => {
		const { downloads, fakes, pinData } = drive(files);
		const result = await runExample(from, { emu, startNode: 'Every 15 minutes', pinData, fakes });
		return { ...result, downloads };
	};

	it('lists only images and videos of one folder, keeps the new ones, downloads each by id, skips by Drive file id', () => {
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
		expect(nodeNamed(workflow, 'Keep new photos').parameters).toMatchObject({
			resource: 'photo',
			operation: 'keepNew',
			fileId: '={{ $json.id }}',
		});
		expect(workflow.connections['List photos in folder'].main).toEqual([
			[{ node: 'Keep new photos', type: 'main', index: 0 }],
		]);
		expect(workflow.connections['Keep new photos'].main).toEqual([
			[{ node: 'Download photo', type: 'main', index: 0 }],
		]);
		expect(nodeNamed(workflow, 'Upload to EventPics').parameters.options).toEqual({
			skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } },
		});
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
		expect(result.downloads).toEqual(FOLDER.map((file) => file.id));
		// the next run downloads nothing: Keep New left every file out
		const next = await run(FOLDER, simplifyOff(workflow));
		expect(next.status).toBe('success');
		expect(next.outputs['Keep new photos'] ?? []).toEqual([]);
		expect(next.downloads).toEqual([]);
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

	it('on the next schedule downloads and uploads only the file that is new in the folder', async () => {
		await run(FOLDER.slice(0, 2));
		expect(emu.uploads).toHaveLength(2);

		const next = await run(FOLDER);

		expect(next.downloads).toEqual(['1c-dance']);
		expect(
			next.outputs['Upload to EventPics'].map((item) => [item.json.fileName, item.json.outcome]),
		).toEqual([['IMG_2044.HEIC', 'uploaded']]);
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
		expect(retried.downloads).toEqual(['1a-booth-1']);

		expect(retried.outputs['Upload to EventPics'][0].json).toMatchObject({
			fileName: 'booth-0001.jpg',
			outcome: 'uploaded',
		});
		expect(emu.uploads.map((u) => u.fileName)).toEqual(['booth-0001.jpg']);
	});
});
