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

	it('lists only the images and videos of one folder, with the fields Keep New and Upload read', () => {
		expect(nodeNamed(workflow, 'List photos in folder').parameters).toMatchObject({
			resource: 'fileFolder',
			searchMethod: 'query',
			queryString: "mimeType contains 'image/' or mimeType contains 'video/'",
			returnAll: true,
			filter: { whatToSearch: 'files', folderId: { mode: 'url' } },
			options: { fields: ['id', 'name', 'mimeType'] },
		});
		// Keep New, the download by id and the Upload's skip by Drive file id: the run below proves them
	});

	it('uploads the photos of the folder under their Drive names, byte for byte; each next schedule downloads only what is new', async () => {
		const first = await run(FOLDER.slice(0, 2));
		const second = await run(FOLDER);
		const third = await run(FOLDER, simplifyOff(workflow));

		expect(first.error).toBeUndefined();
		expect(
			[first, second].flatMap((result) =>
				result.outputs['Upload to EventPics'].map((item) => item.json),
			),
		).toEqual(
			FOLDER.map((file) =>
				expect.objectContaining({
					outcome: 'uploaded',
					fileName: file.name,
					eventTitle: "Anna & Ben's Wedding",
					albumTitle: 'Photo booth',
				}),
			),
		);
		expect([first.downloads, second.downloads, third.downloads]).toEqual([
			['1a-booth-1', '1b-confetti'],
			['1c-dance'],
			[],
		]);
		expect(third.status).toBe('success');
		expect(third.outputs['Keep new photos'] ?? []).toEqual([]);
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
});
