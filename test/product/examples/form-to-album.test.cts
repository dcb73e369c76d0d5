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

	it('asks for several photos or videos in a field named "photos" and ends on a page for the guest', () => {
		const form = nodeNamed(workflow, 'Photo form');
		expect(form).toMatchObject({
			type: 'n8n-nodes-base.formTrigger',
			typeVersion: 2.6,
			webhookId: expect.any(String),
		});
		expect(form.parameters).toMatchObject({
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
		// a Form node after the trigger makes n8n answer with that page (the trigger's own answer is unused)
		expect(form.parameters.responseMode).toBeUndefined();
		// the ending page answers in text; Upload (every binary field, a failed file as an item) and
		// the page's words: the runs below prove them
		expect(nodeNamed(workflow, 'Tell the guest').parameters).toMatchObject({ respondWith: 'text' });
	});

	it('uploads every file of a submission into the album and thanks the guest', async () => {
		const files = ['booth-0002.jpg', 'confetti.png', 'first-dance.heic'];

		const result = await runExample(workflow, {
			emu,
			startNode: 'Photo form',
			pinData: { 'Photo form': await submission('Ana', files) },
		});

		expect(result.error).toBeUndefined();
		expect(
			result.outputs['Upload to EventPics'].map((item) => [
				item.json.outcome,
				item.json.fileName,
				item.pairedItem,
			]),
		).toEqual([
			['uploaded', 'booth-0002.jpg', { item: 0 }],
			['uploaded', 'confetti.png', { item: 0 }],
			['uploaded', 'first-dance.heic', { item: 0 }],
		]);
		expect(emu.uploads.map((u) => [u.fileName, u.linkId, u.albumId, u.sha256]).sort()).toEqual(
			files.map((file) => [file, 'wedding-anna-ben', 'booth', sha256(join(SAMPLES, file))]).sort(),
		);
		expect(result.outputs['Tell the guest'].map((item) => item.json)).toEqual([
			{ title: 'Thank you!', message: 'Your photos are in the album.' },
		]);
	});

	it('tells the guest which files did not arrive when EventPics refuses one; the others go in', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 400, times: 1 });

		const result = await runExample(workflow, {
			emu,
			startNode: 'Photo form',
			pinData: {
				'Photo form': await submission('Ben', ['booth-0001.jpg', 'confetti.png']),
			},
		});

		expect(result.status).toBe('success');
		const outcomes = result.outputs['Upload to EventPics'].map((item) => item.json);
		const failed = outcomes.filter((json) => json.outcome === 'failed');
		expect(failed).toHaveLength(1);
		expect(failed[0].error).toMatch(/refused .* \(400\)/);
		expect(emu.uploads.map((u) => u.fileName)).toEqual(
			outcomes.filter((json) => json.outcome === 'uploaded').map((json) => json.fileName),
		);
		expect(result.outputs['Tell the guest'].map((item) => item.json)).toEqual([
			{
				title: 'Not every file arrived',
				message: `These did not arrive: ${String(failed[0].fileName)}. Please send them again; the others are in the album.`,
			},
		]);
	});

	it('tells the guest when nothing arrived (a file that is not a photo)', async () => {
		const result = await runExample(workflow, {
			emu,
			startNode: 'Photo form',
			pinData: {
				'Photo form': [
					{
						json: { name: 'Cy', photos: [], submittedAt: '2026-06-20T21:05:00.000+02:00' },
						binary: {
							photos_0: await storedFile(Buffer.from('just text'), {
								fileName: 'notes.txt',
								mimeType: 'text/plain',
							}),
						},
					},
				],
			},
		});
		expect(result.outputs['Tell the guest'].map((item) => item.json)).toEqual([
			{
				title: 'Not every file arrived',
				message: 'These did not arrive: notes.txt. Please send them again.',
			},
		]);
		expect(emu.uploads).toHaveLength(0);
	});
});
