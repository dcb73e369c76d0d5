import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import type { IBinaryData } from 'n8n-workflow';

import { DATABASE_READ_LIMIT } from '../../../nodes/EventPics/actions/photo/file';
import { runEventPics, uploadParameters, useEmulator } from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PHOTO = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));

/**
 * A stand-in for n8n's `database` binary data manager (packages/cli, not installable here), with
 * its behaviour: every read, a stream included, loads the whole file. It counts reads. The real
 * manager on Postgres is exercised by `npm run test:queue`.
 */
class DatabaseStore {
	files = new Map<
		string,
		{ data?: Buffer; fileName: string; mimeType: string; fileSize: number }
	>();

	reads = 0;

	async init() {}

	add(data: Buffer | undefined, fileName: string, fileSize = data?.length ?? 0): IBinaryData {
		const fileId = randomUUID();
		this.files.set(fileId, { data, fileName, mimeType: 'image/jpeg', fileSize });
		return {
			id: `database:${fileId}`,
			data: 'database',
			fileName,
			mimeType: 'image/jpeg',
			fileSize: `${fileSize} B`,
		};
	}

	async getAsBuffer(fileId: string) {
		this.reads++;
		const file = this.files.get(fileId);
		if (!file?.data) throw new Error(`read of ${fileId}, which the test never meant to be read`);
		return file.data;
	}

	async getAsStream(fileId: string) {
		return Readable.from(await this.getAsBuffer(fileId));
	}

	async getMetadata(fileId: string) {
		const { fileName, mimeType, fileSize } = this.files.get(fileId)!;
		return { fileName, mimeType, fileSize };
	}
}

describe('Photo > Upload from n8n binary data mode "database" (queue mode default)', () => {
	const emu = useEmulator();
	let store: DatabaseStore;
	beforeAll(async () => {
		await engine.initEngine();
		store = new DatabaseStore();
		engine.getBinaryDataService().setManager('database', store);
	});
	beforeEach(() => (store.reads = 0));

	it('reads the file from the database once for EXIF, content hash and PUT, and says it was buffered', async () => {
		const { items, status } = await runEventPics({
			emu,
			parameters: uploadParameters({
				options: { skipUploaded: { settings: { identifyBy: 'content' } } },
			}),
			inputItems: [{ json: {}, binary: { data: store.add(PHOTO, 'booth-0001.jpg') } }],
		});
		expect(status).toBe('success');
		expect(items[0].json).toMatchObject({
			fileName: 'booth-0001.jpg',
			statusCode: 200,
			binaryDataMode: 'database',
		});
		expect(items[0].json.warnings).toEqual([]);
		expect(store.reads).toBe(1);
		expect(emu.uploads.map((u) => u.sha256)).toEqual([sha256(PHOTO)]);
	});

	it('warns that a large file was held whole in memory', async () => {
		const big = Buffer.concat([PHOTO, randomBytes(64 * 1024 * 1024)]);
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters({ takenAt: { source: 'none' } }),
			inputItems: [{ json: {}, binary: { data: store.add(big, 'big.jpg') } }],
		});
		expect(items[0].json).toMatchObject({
			statusCode: 200,
			binaryDataMode: 'database',
			bytes: big.length,
		});
		expect(items[0].json.warnings).toEqual([
			'n8n\'s binary data mode "database" (the default in queue mode) cannot stream: this file (64 MiB) was held whole in memory while it was uploaded, once for every file uploaded at the same time. For large files use the "filesystem" mode on a folder that main and workers share (N8N_BINARY_DATA_STORAGE_PATH), or "s3" where licensed.',
		]);
		expect(emu.uploads.map((u) => u.sha256)).toEqual([sha256(big)]);
	});

	it('refuses a file n8n cannot read back from Postgres before reading it; other items still go', async () => {
		const { allOutputs, nodeName } = await runEventPics({
			emu,
			onError: 'continueErrorOutput',
			parameters: uploadParameters({ takenAt: { source: 'none' } }),
			inputItems: [
				{
					json: {},
					binary: { data: store.add(undefined, 'huge.mp4', DATABASE_READ_LIMIT + 1) },
				},
				{ json: {}, binary: { data: store.add(PHOTO, 'booth-0001.jpg') } },
			],
		});
		const [uploaded, failed] = allOutputs[nodeName];
		expect(failed[0].json).toEqual({
			error: 'The file in binary field "data" (256 MiB) is too large to read from n8n\'s database',
		});
		expect((failed[0].error as unknown as { description: string }).description).toMatch(
			/^n8n keeps binary data in its database \(binary data mode "database", the default in queue mode\) and cannot read a file over 256 MiB back from Postgres/,
		);
		expect(uploaded[0].json).toMatchObject({ fileName: 'booth-0001.jpg', statusCode: 200 });
		expect(store.reads).toBe(1);
		expect(emu.uploads).toHaveLength(1);
	});
});
