import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IBinaryKeyData } from 'n8n-workflow';

import type { Emulator } from '../node/fixture.cts';
import { startEmulator } from '../node/fixture.cts';
import { example, nodeNamed, runExample, storedFile } from './run-example.cts';

const SAMPLES = join(__dirname, '..', '..', 'fixtures', 'samples');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * A submission as n8n 2.41's Form Trigger (v2.6) outputs it: the field named "photos" with several
 * files becomes binary fields photos_0, photos_1, ... and a list of their facts in json.
 */
async function submission(name: string, files: string[]) {
	const binary: IBinaryKeyData = {};
	const facts = [];
	for (const [index, file] of files.entries()) {
		const data = await storedFile(join(SAMPLES, file));
		binary[`photos_${index}`] = data;
		facts.push({ filename: file, mimetype: data.mimeType, size: data.fileSize });
	}
	return [
		{
			json: {
				name,
				photos: facts,
				submittedAt: '2026-06-20T21:05:00.000+02:00',
				formMode: 'production',
			},
			binary,
		},
	];
}

describe('example: guest form to album', () => {
	const workflow = example('form-to-album');
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator();
	});
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	it('asks for several photos or videos in a field named "photos" and answers after the upload', () => {
		const form = nodeNamed(workflow, 'Photo form');
		expect(form).toMatchObject({
			type: 'n8n-nodes-base.formTrigger',
			typeVersion: 2.6,
			webhookId: expect.any(String),
		});
		expect(form.parameters).toMatchObject({
			responseMode: 'lastNode',
			options: { path: 'share-photos' },
			formFields: {
				values: expect.arrayContaining([
					expect.objectContaining({
						fieldName: 'photos',
						fieldType: 'file',
						multipleFiles: true,
						requiredField: true,
					}),
				]),
			},
		});
		expect(nodeNamed(workflow, 'Upload to EventPics').parameters).toMatchObject({
			allBinaryFields: true,
		});
	});

	it('uploads every file of a submission into the album, one output item per file', async () => {
		const files = ['booth-0002.jpg', 'confetti.png', 'first-dance.heic'];

		const result = await runExample(workflow, {
			emu,
			startNode: 'Photo form',
			pinData: { 'Photo form': await submission('Ana', files) },
		});

		expect(result.error).toBeUndefined();
		expect(
			result.outputs['Upload to EventPics'].map((item) => [
				item.json.binaryField,
				item.json.fileName,
				item.pairedItem,
			]),
		).toEqual([
			['photos_0', 'booth-0002.jpg', { item: 0 }],
			['photos_1', 'confetti.png', { item: 0 }],
			['photos_2', 'first-dance.heic', { item: 0 }],
		]);
		expect(emu.uploads.map((u) => [u.fileName, u.linkId, u.albumId, u.sha256]).sort()).toEqual(
			files.map((file) => [file, 'wedding-anna-ben', 'booth', sha256(join(SAMPLES, file))]).sort(),
		);
	});

	it('fails the submission with the reason when EventPics refuses a file, so the guest sees it', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });

		const result = await runExample(workflow, {
			emu,
			startNode: 'Photo form',
			pinData: { 'Photo form': await submission('Ben', ['booth-0001.jpg']) },
		});

		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ httpCode: '400' });
		expect(emu.uploads).toHaveLength(0);
	});
});
