import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { serve, useFileHost } from './fileHost.cts';

import {
	binaryFromBuffer,
	fromList,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const upload = uploadParameters;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { clearDedupStore } = require('../../tools/engine');
const emu = useEmulator();
beforeEach(() => clearDedupStore());

describe('Photo > Upload: several files per item', () => {
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

	it('uploads every binary field when Input Binary Field is *', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: ' * ' }),
			inputItems: [item()],
		});
		expect(items.map((i) => i.json.binaryField)).toEqual(['data', 'photo2', 'clip']);
		expect(emu.uploads.map((u) => u.contentType).sort()).toEqual([
			'image/jpeg',
			'image/png',
			'video/mp4',
		]);
	});

	it.each([
		['*', 'The item has no binary data'],
		['__proto__', 'The item has no binary field "__proto__" (it has: data, photo2, clip)'],
		['data, nope', 'The item has no binary field "nope" (it has: data, photo2, clip)'],
	])(
		'Input Binary Field %j on an item without that field: an error naming it',
		async (field, message) => {
			const { nodeError } = await runEventPics({
				emu,
				parameters: upload({ binaryPropertyName: field }),
				inputItems: [field === '*' ? { json: {} } : item()],
			});
			expect(nodeError?.message).toBe(message);
			if (field === '*')
				expect(nodeError?.description).toBe(
					'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
				);
			expect(emu.uploads).toHaveLength(0);
		},
	);

	it('without Continue On Fail, items before a bad one are uploaded, none after it', async () => {
		const good = (name: string) => ({
			binary: { data: binaryFromBuffer(mediaBytes(10), { fileName: name }) },
		});
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: 'data' }),
			inputItems: [good('0.jpg'), good('1.jpg'), { json: {} }, good('3.jpg')],
		});
		expect(nodeError?.message).toBe('The item has no binary data (expected a binary field "data")');
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual(['0.jpg', '1.jpg']);
	});
});

describe('Photo > Upload from a URL', () => {
	const booth = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));
	const host = useFileHost();
	beforeAll(() => {
		host.route('/booth.jpg', serve.file(booth, 'image/jpeg'));
		host.route('/chunked.jpg', serve.file(booth, 'image/jpeg', { length: false }));
		host.route('/stream', serve.file(booth, 'image/png', { length: false }));
		const disposition = `attachment; filename="fallback.heic"; filename*=UTF-8''Tanz%20%F0%9F%92%83.heic`;
		const headers = { 'Content-Disposition': disposition };
		host.route('/download?id=42', serve.file(booth, 'image/heic', { headers }));
	});
	// the file host is on 127.0.0.1, which the URL source refuses unless told otherwise
	const fromUrl = (path: string, options: object = {}, extra: object = {}) =>
		upload({
			source: 'url',
			fileUrl: path.includes(':') ? path : `${host.url}${path}`,
			options: { allowInternalAddresses: true, ...options },
			...extra,
		});

	it('learns the size of a file sent without Content-Length; its name gets the extension of its type', async () => {
		const { items } = await runEventPics({ emu, parameters: fromUrl('/stream') });
		expect(items[0].json).toMatchObject({
			url: `${host.url}/stream`,
			fileName: 'stream.png',
			contentType: 'image/png',
			bytes: booth.length,
		});
		expect(emu.uploads[0].sha256).toBe(sha256(booth));
	});

	it('takes the name from Content-Disposition (filename* first)', async () => {
		const { items } = await runEventPics({ emu, parameters: fromUrl('/download?id=42') });
		expect(items[0].json).toMatchObject({ fileName: 'Tanz 💃.heic', contentType: 'image/heic' });
	});

	it('sends the one downloaded copy again for a retry, without a second download', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 500, times: 1 });
		const { items } = await runEventPics({ emu, parameters: fromUrl('/booth.jpg') });
		expect(items[0].json).toMatchObject({ attempts: 2, bytes: booth.length });
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0].sha256).toBe(sha256(booth));
		expect(host.gets('/booth.jpg')).toBe(1);
	});

	it('says which URL failed and how', async () => {
		const { nodeError } = await runEventPics({ emu, parameters: fromUrl('/missing.jpg') });
		expect(nodeError?.message).toBe(
			`The server of the File URL answered the download with 404: ${host.url}/missing.jpg`,
		);
		expect(nodeError?.description).toBe(
			'Check that the File URL is right and that the file is reachable without logging in.',
		);
	});

	it('refuses what is not an http(s) address', async () => {
		const { nodeError } = await runEventPics({ emu, parameters: fromUrl('file:///etc/passwd') });
		expect(nodeError?.message).toBe('The File URL is not an http(s) address: file:///etc/passwd');
		expect(emu.requests.filter((r) => r.url.startsWith('/getuploadurl'))).toHaveLength(0);
	});

	it.each([
		['default settings (EXIF on)', '/booth.jpg', {}, {}],
		['Taken At not sent', '/booth.jpg', {}, { takenAt: { source: 'none' } }],
		[
			'Skip Files Uploaded Before',
			'/booth.jpg',
			{ skipUploaded: { settings: { identifyBy: 'content' } } },
			{},
		],
		[
			'Skip Files Uploaded Before, no Content-Length',
			'/chunked.jpg',
			{ skipUploaded: { settings: { identifyBy: 'content' } } },
			{},
		],
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
			historyKey: `wedding-anna-ben/booth/sha256:${sha256(booth)}`,
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
			`The file of the File URL is empty (0 bytes): ${host.url}/empty.jpg`,
		);
		expect(nodeError?.description).toBe('Check the File URL: an empty file cannot be uploaded.');
		expect(emu.requests.filter((r) => r.url.startsWith('/getuploadurl'))).toHaveLength(0);
	});
});

describe('Photo > Upload: skip files uploaded before', () => {
	const photos = [mediaBytes(1000), mediaBytes(1000)];
	const input = (names = ['a.jpg', 'b.jpg']) =>
		names.map((name, index) => ({
			json: { id: `file-${index}` },
			binary: { data: binaryFromBuffer(photos[index], { fileName: name }) },
		}));

	it('uploads new files once; a later run reports them as skipped, even renamed, but not in another album', async () => {
		const parameters = upload({
			binaryPropertyName: 'data',
			options: { skipUploaded: { settings: { identifyBy: 'content' } } },
		});
		const first = await runEventPics({ emu, parameters, inputItems: input() });
		expect(first.items.map((i) => i.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(first.items[0].json.historyKey).toBe(
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
		// the same files go up again into another album
		const other = await runEventPics({
			emu,
			parameters: { ...parameters, album: fromList('ceremony') },
			inputItems: input(),
		});
		expect(other.items.map((i) => i.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(emu.uploads).toHaveLength(4);
	});

	it('skips by File ID when given, whatever the bytes', async () => {
		const parameters = upload({
			options: { skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } } },
		});
		await runEventPics({ emu, parameters, inputItems: input() });
		// new bytes, same ids: skipped by key
		const changed = [0, 1].map((index) => ({
			json: { id: `file-${index}` },
			binary: { data: binaryFromBuffer(mediaBytes(50), { fileName: 'x.jpg' }) },
		}));
		const second = await runEventPics({ emu, parameters, inputItems: changed });
		expect(second.items.map((i) => [i.json.outcome, i.json.historyKey])).toEqual([
			['skipped', 'wedding-anna-ben/booth/key:file-0'],
			['skipped', 'wedding-anna-ben/booth/key:file-1'],
		]);
	});
});
