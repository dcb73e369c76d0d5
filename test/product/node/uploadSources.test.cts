import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FileHost } from './fileHost.cts';
import { serve, startFileHost } from './fileHost.cts';

import type { Emulator } from './fixture.cts';
import {
	binaryFromBuffer,
	fromList,
	mediaBytes,
	runEventPics,
	startEmulator,
	uploadParameters,
} from './fixture.cts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const upload = uploadParameters;

describe('Photo > Upload: several files per item', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	const item = () => ({
		binary: {
			data: binaryFromBuffer(mediaBytes(100), { fileName: 'a.jpg' }),
			photo2: binaryFromBuffer(mediaBytes(200, 'png'), { fileName: 'b.png' }),
			clip: binaryFromBuffer(mediaBytes(300, 'mp4'), { fileName: 'c.mp4' }),
		},
	});

	it('uploads a comma-separated list of fields, one output item per file, in field order', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: 'photo2, data' }),
			inputItems: [item(), item()],
		});
		expect(items.map((i) => [i.json.binaryField, i.json.fileName, i.pairedItem])).toEqual([
			['photo2', 'b.png', { item: 0 }],
			['data', 'a.jpg', { item: 0 }],
			['photo2', 'b.png', { item: 1 }],
			['data', 'a.jpg', { item: 1 }],
		]);
		expect(emu.uploads).toHaveLength(4);
	});

	it('uploads every binary field when asked to', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ allBinaryFields: true }),
			inputItems: [item()],
		});
		expect(items.map((i) => i.json.binaryField)).toEqual(['data', 'photo2', 'clip']);
		expect(emu.uploads.map((u) => u.contentType).sort()).toEqual([
			'image/jpeg',
			'image/png',
			'video/mp4',
		]);
	});

	it('Upload All Binary Fields set to the text "false" by an expression stays off; other text is an error naming the field', async () => {
		const off = await runEventPics({
			emu,
			parameters: upload({ allBinaryFields: '={{ "false" }}' }),
			inputItems: [item()],
		});
		expect(off.nodeError?.message).toBeUndefined();
		expect(off.items.map((i) => i.json.binaryField)).toEqual(['data']);
		const on = await runEventPics({
			emu,
			parameters: upload({ allBinaryFields: '={{ "true" }}' }),
			inputItems: [item()],
		});
		expect(on.items.map((i) => i.json.binaryField)).toEqual(['data', 'photo2', 'clip']);
		emu.reset();
		const bad = await runEventPics({
			emu,
			parameters: upload({ allBinaryFields: '={{ "yes please" }}' }),
			inputItems: [item()],
		});
		expect(bad.nodeError?.message).toBe(
			'"Upload All Binary Fields" of item 0 must be true or false, not "yes please"',
		);
		expect(bad.nodeError?.description).toBe(
			'Turn "Upload All Binary Fields" on or off; when it is an expression, make it give true or false.',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a binary field named __proto__ is a missing field like any other', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: '__proto__' }),
			inputItems: [item()],
		});
		expect(nodeError?.message).toBe(
			'Input item 0 has no binary field "__proto__" (it has: data, photo2, clip)',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('names a missing field of the list', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: 'data, nope' }),
			inputItems: [item()],
		});
		expect(nodeError?.message).toBe(
			'Input item 0 has no binary field "nope" (it has: data, photo2, clip)',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('without Continue On Fail, items before a bad one are uploaded, none after it', async () => {
		const good = (name: string) => ({
			binary: { data: binaryFromBuffer(mediaBytes(10), { fileName: name }) },
		});
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: 'data' }),
			inputItems: [good('0.jpg'), good('1.jpg'), { json: {} }, good('3.jpg')],
		});
		expect(nodeError?.message).toBe('Input item 2 has no binary data (expected a binary field "data")');
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual(['0.jpg', '1.jpg']);
	});
});

describe('Photo > Upload from a URL', () => {
	let emu: Emulator;
	let files: Server;
	let filesUrl: string;
	const photo = mediaBytes(300_000); // a fetched file must be a photo or video the node recognises
	const gets: string[] = [];
	beforeAll(async () => {
		emu = await startEmulator();
		files = createServer((req, res) => {
			gets.push(req.url ?? '');
			if (req.url === '/photos/booth-7.jpg') {
				res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': photo.length });
				res.end(photo);
			} else if (req.url === '/stream') {
				// no Content-Length: chunked
				res.writeHead(200, { 'Content-Type': 'image/png' });
				res.write(photo.subarray(0, 1000));
				res.end(photo.subarray(1000));
			} else if (req.url === '/download?id=42') {
				res.writeHead(200, {
					'Content-Type': 'image/heic',
					'Content-Length': photo.length,
					'Content-Disposition':
						'attachment; filename="fallback.heic"; filename*=UTF-8\'\'Tanz%20%F0%9F%92%83.heic',
				});
				res.end(photo);
			} else {
				res.writeHead(404).end('not here');
			}
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await emu.close();
		await new Promise((resolve) => files.close(resolve));
	});
	beforeEach(() => {
		emu.reset();
		gets.length = 0;
	});
	// the file host is on 127.0.0.1, which the URL source refuses unless told otherwise
	const fromUrl = (extra: object) =>
		upload({ source: 'url', options: { allowInternalAddresses: true }, ...extra });

	it('downloads a file with a known size and uploads it', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: `${filesUrl}/photos/booth-7.jpg` }),
		});
		expect(items[0].json).toMatchObject({
			url: `${filesUrl}/photos/booth-7.jpg`,
			fileName: 'booth-7.jpg',
			contentType: 'image/jpeg',
			bytes: photo.length,
			statusCode: 200,
		});
		expect(emu.uploads[0]).toMatchObject({ size: photo.length, sha256: sha256(photo) });
	});

	it('learns the size of a file sent without Content-Length by storing it first', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: `${filesUrl}/stream` }),
		});
		expect(items[0].json).toMatchObject({
			fileName: 'stream.png',
			contentType: 'image/png',
			bytes: photo.length,
		});
		expect(emu.uploads[0].sha256).toBe(sha256(photo));
	});

	it('takes the name from Content-Disposition (filename* first)', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: `${filesUrl}/download?id=42` }),
		});
		expect(items[0].json).toMatchObject({ fileName: 'Tanz 💃.heic', contentType: 'image/heic' });
	});

	it('sends the one downloaded copy again for a retry, without a second download', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 500, times: 1 });
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: `${filesUrl}/photos/booth-7.jpg` }),
		});
		expect(items[0].json).toMatchObject({ attempts: 2, bytes: photo.length });
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0].sha256).toBe(sha256(photo));
		expect(gets).toEqual(['/photos/booth-7.jpg']);
	});

	it('says which URL failed and how', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: `${filesUrl}/missing.jpg` }),
		});
		expect(nodeError?.message).toBe(
			`Input item 0 could not download "${filesUrl}/missing.jpg": its server answered 404`,
		);
		expect(nodeError?.description).toBe(
			'Check that the File URL is right and that the file is reachable without logging in.',
		);
	});

	it('refuses what is not an http(s) address', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl({ fileUrl: 'file:///etc/passwd' }),
		});
		expect(nodeError?.message).toBe(
			'Input item 0 has a File URL that is not http(s): "file:///etc/passwd"',
		);
		expect(emu.requests.filter((r) => r.url.startsWith('/getuploadurl'))).toHaveLength(0);
	});
});

describe('Photo > Upload from a URL: one download per file', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { clearDedupStore } = require('../../tools/engine');
	const booth = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));
	let emu: Emulator;
	let host: FileHost;
	beforeAll(async () => {
		emu = await startEmulator();
		host = await startFileHost();
		host.route('/booth.jpg', serve.file(booth, 'image/jpeg'));
		host.route('/chunked.jpg', serve.file(booth, 'image/jpeg', { length: false }));
	});
	afterAll(async () => {
		await emu.close();
		await host.close();
	});
	beforeEach(() => {
		emu.reset();
		host.reset();
		clearDedupStore();
	});
	const fromUrl = (path: string, options: object = {}, extra: object = {}) =>
		upload({
			source: 'url',
			fileUrl: `${host.url}${path}`,
			options: { allowInternalAddresses: true, ...options },
			...extra,
		});

	it.each([
		['default settings (EXIF on)', '/booth.jpg', {}, {}],
		['Taken At not sent', '/booth.jpg', {}, { takenAtMode: 'none' }],
		['Skip Files Uploaded Before', '/booth.jpg', { skipUploaded: { settings: { identifyBy: 'content' } } }, {}],
		['Skip Files Uploaded Before, no Content-Length', '/chunked.jpg', { skipUploaded: { settings: { identifyBy: 'content' } } }, {}],
	])('fetches the file exactly once: %s', async (_name, path, options, extra) => {
		const { items } = await runEventPics({ emu, parameters: fromUrl(path, options, extra) });
		expect(items[0].json).toMatchObject({ statusCode: 200, bytes: booth.length });
		expect(host.gets(path)).toBe(1);
		expect(emu.uploads[0].sha256).toBe(sha256(booth));
	});

	it('reads EXIF, hashes and uploads the same single download', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl('/booth.jpg', { skipUploaded: { settings: { identifyBy: 'content' } } }),
		});
		expect(items[0].json).toMatchObject({
			takenAtSource: 'exif',
			dedupeKey: `wedding-anna-ben/booth/sha256:${sha256(booth)}`,
		});
		expect(host.gets('/booth.jpg')).toBe(1);
	});

	it('uploads from a one-time link (a second GET would get 404)', async () => {
		host.route('/once.jpg', serve.once(booth, 'image/jpeg'));
		const { items, nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('/once.jpg', { skipUploaded: { settings: { identifyBy: 'content' } } }),
		});
		expect(nodeError).toBeUndefined();
		expect(items[0].json).toMatchObject({
			fileName: 'once.jpg',
			statusCode: 200,
			takenAtSource: 'exif',
		});
		expect(emu.uploads[0].sha256).toBe(sha256(booth));
	});

	it('refuses an empty file before asking for an upload address', async () => {
		host.route('/empty.jpg', serve.file(Buffer.alloc(0), 'image/jpeg'));
		const { nodeError } = await runEventPics({ emu, parameters: fromUrl('/empty.jpg') });
		expect(nodeError?.message).toBe(
			`Input item 0 has a File URL whose file is empty (0 bytes): "${host.url}/empty.jpg"`,
		);
		expect(nodeError?.description).toBe('Check the File URL: an empty file cannot be uploaded.');
		expect(emu.requests.filter((r) => r.url.startsWith('/getuploadurl'))).toHaveLength(0);
	});

	it('follows a redirect once and names the file after the address given', async () => {
		host.route('/share/abc', serve.redirect('/files/9f8e7d.jpg', 302));
		host.route('/files/9f8e7d.jpg', serve.file(booth, 'image/jpeg'));
		const { items } = await runEventPics({ emu, parameters: fromUrl('/share/abc') });
		expect(items[0].json).toMatchObject({ fileName: 'abc.jpg', contentType: 'image/jpeg' });
		expect(items[0].json.typeFromContent).toBeNull();
		expect(host.requests.map((r) => r.path)).toEqual(['/share/abc', '/files/9f8e7d.jpg']);
	});
});

describe('Photo > Upload: skip files uploaded before', () => {
	let emu: Emulator;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { clearDedupStore } = require('../../tools/engine');
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => {
		emu.reset();
		clearDedupStore();
	});

	const photos = [mediaBytes(1000), mediaBytes(1000)];
	const input = (names = ['a.jpg', 'b.jpg']) =>
		names.map((name, index) => ({
			json: { id: `file-${index}` },
			binary: { data: binaryFromBuffer(photos[index], { fileName: name }) },
		}));

	it('uploads new files once; a later run reports them as skipped, even renamed', async () => {
		const parameters = upload({ binaryPropertyName: 'data', options: { skipUploaded: { settings: { identifyBy: 'content' } } } });
		const first = await runEventPics({ emu, parameters, inputItems: input() });
		expect(first.items.map((i) => i.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(first.items[0].json.dedupeKey).toBe(
			`wedding-anna-ben/booth/sha256:${sha256(photos[0])}`,
		);
		const second = await runEventPics({
			emu,
			parameters,
			inputItems: input(['renamed-a.jpg', 'b.jpg']),
		});
		expect(second.items.map((i) => [i.json.outcome, i.json.fileName, i.pairedItem])).toEqual([
			['skipped', 'renamed-a.jpg', { item: 0 }],
			['skipped', 'b.jpg', { item: 1 }],
		]);
		expect(second.items[0].json.reason).toBe(
			'This workflow uploaded this file to this event and album before (Skip Files Uploaded Before).',
		);
		expect(emu.uploads).toHaveLength(2);
	});

	it('uploads the same file again into another album', async () => {
		await runEventPics({
			emu,
			parameters: upload({ options: { skipUploaded: { settings: { identifyBy: 'content' } } } }),
			inputItems: input(),
		});
		const other = await runEventPics({
			emu,
			parameters: upload({ album: fromList('ceremony'), options: { skipUploaded: { settings: { identifyBy: 'content' } } } }),
			inputItems: input(),
		});
		expect(other.items.map((i) => i.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(emu.uploads).toHaveLength(4);
	});

	it('does not remember a file whose upload failed, so the next run uploads it', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 400, times: 1 });
		const parameters = upload({ options: { skipUploaded: { settings: { identifyBy: 'content' } } } });
		const failed = await runEventPics({
			emu,
			continueOnFail: true,
			parameters,
			inputItems: input(['a.jpg']),
		});
		expect(failed.items[0].json).toMatchObject({ outcome: 'failed', fileName: 'a.jpg' });
		expect(failed.items[0].json.error).toMatch(/answered 400/);
		const retried = await runEventPics({ emu, parameters, inputItems: input(['a.jpg']) });
		expect(retried.items[0].json).toMatchObject({ outcome: 'uploaded', statusCode: 200 });
		expect(emu.uploads).toHaveLength(1);
	});

	it('uses a custom Duplicate Key when given', async () => {
		const parameters = upload({ options: { skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } } } });
		await runEventPics({ emu, parameters, inputItems: input() });
		// new bytes, same ids: skipped by key
		const changed = [0, 1].map((index) => ({
			json: { id: `file-${index}` },
			binary: { data: binaryFromBuffer(mediaBytes(50), { fileName: 'x.jpg' }) },
		}));
		const second = await runEventPics({ emu, parameters, inputItems: changed });
		expect(second.items.map((i) => [i.json.outcome, i.json.dedupeKey])).toEqual([
			['skipped', 'wedding-anna-ben/booth/key:file-0'],
			['skipped', 'wedding-anna-ben/booth/key:file-1'],
		]);
	});

	it('recognises a duplicate within one run too', async () => {
		const same = [0, 1].map(() => ({
			binary: { data: binaryFromBuffer(photos[0], { fileName: 'same.jpg' }) },
		}));
		const { items } = await runEventPics({
			emu,
			parameters: upload({ options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 1 } }),
			inputItems: same,
		});
		expect(items.map((i) => i.json.outcome)).toEqual(['uploaded', 'skipped']);
		expect(emu.uploads).toHaveLength(1);
	});
});
