import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

import {
	binaryFromBuffer,
	fileItem,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const upload = uploadParameters;

/** A real JPEG with EXIF (DateTimeOriginal) at the start, random bytes after it: several read chunks. */
const realJpeg = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));
const photo = (size: number) => Buffer.concat([realJpeg, randomBytes(size - realJpeg.length)]);

/**
 * The stored file is read through n8n's real BinaryDataService (filesystem mode); every stream it
 * hands out is counted and kept, to check the count and that none is left open after the run.
 */
describe('Photo > Upload opens a stored file once for its look and once per upload try', () => {
	const emu = useEmulator();
	let opened: Array<{ id: string; stream: Readable }>;
	beforeAll(async () => await engine.initEngine());
	beforeEach(() => {
		opened = [];
		const service = engine.getBinaryDataService();
		const original = service.getAsStream.bind(service);
		jest.spyOn(service, 'getAsStream').mockImplementation((async (
			id: string,
			chunkSize?: number,
		) => {
			const stream = (await original(id, chunkSize)) as Readable;
			opened.push({ id, stream });
			return stream;
		}) as never);
	});
	afterEach(() => jest.restoreAllMocks());

	const opensPerFile = () => {
		const counts = new Map<string, number>();
		for (const { id } of opened) counts.set(id, (counts.get(id) ?? 0) + 1);
		return [...counts.values()];
	};
	const allClosed = async () => {
		await new Promise((resolve) => setImmediate(resolve));
		return opened.every(({ stream }) => stream.destroyed || stream.closed);
	};

	/** Runs the node on one item whose binary "data" holds these bytes as a JPEG. */
	const uploadOne = (bytes: Buffer, fileName: string) =>
		runEventPics({
			emu,
			parameters: upload(),
			inputItems: [
				{
					json: {},
					binary: { data: binaryFromBuffer(bytes, { fileName, mimeType: 'image/jpeg' }) },
				},
			],
		});

	it('reads the EXIF date, then opens the file anew for the PUT: two opens per file, every byte stored as it was', async () => {
		const files = [photo(3 * 1024 * 1024 + 17), photo(200_000), photo(70_000)];
		const { items, status } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: files.map((bytes, i) => fileItem(`booth-${i}.jpg`, bytes, 'image/jpeg')),
		});
		expect(status).toBe('success');
		expect(items.map((item) => item.json.takenAtSource)).toEqual(['exif', 'exif', 'exif']);
		expect(opensPerFile()).toEqual([2, 2, 2]);
		const stored = new Map(emu.uploads.map((u) => [u.fileName, u]));
		files.forEach((bytes, i) => {
			expect(stored.get(`booth-${i}.jpg`)).toMatchObject({
				size: bytes.length,
				sha256: sha256(bytes),
			});
		});
		expect(await allClosed()).toBe(true);
	});

	it('opens the file anew for a retry of the PUT (a sent stream is spent), and stores it whole', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 503, times: 1 });
		const bytes = photo(1024 * 1024);
		const { items, status } = await uploadOne(bytes, 'retry.jpg');
		expect(status).toBe('success');
		expect(items[0].json).toMatchObject({ attempts: 2, takenAtSource: 'exif' });
		expect(opensPerFile()).toEqual([3]);
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0]).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
		expect(await allClosed()).toBe(true);
	});

	it('a file shorter than the look is opened for the look and for the PUT, and stored whole', async () => {
		// a JPEG of 28 bytes: a comment of 20 random bytes between start and end markers
		const tiny = Buffer.concat([
			Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0, 22]),
			randomBytes(20),
			Buffer.from([0xff, 0xd9]),
		]);
		const { items, status } = await uploadOne(tiny, 'tiny.jpg');
		expect(status).toBe('success');
		expect(items[0].json).toMatchObject({ bytes: tiny.length, statusCode: 200 });
		expect(opensPerFile()).toEqual([2]);
		expect(emu.uploads[0]).toMatchObject({ size: tiny.length, sha256: sha256(tiny) });
		expect(await allClosed()).toBe(true);
	});

	it("closes the look's stream when the file is refused before any PUT", async () => {
		const page = Buffer.from('<!doctype html><html><body>Please log in</body></html>'.repeat(2000));
		const { nodeError } = await uploadOne(page, 'photo.jpg');
		expect(nodeError?.message).toContain('refused');
		expect(emu.requests.filter((r) => r.server === 'storage')).toHaveLength(0);
		expect(opensPerFile()).toEqual([1]);
		expect(await allClosed()).toBe(true);
	});
});
