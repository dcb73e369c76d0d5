import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { binaryFromBuffer, binaryFromFile, inlineBinary, readBinary, runNode, storeBinary, initEngine } from './index';
import { startTinyServer } from './tiny-server';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Throwaway node: PUTs the item's `data` binary to `url`, streamed when stored, as HTTP Request v3 does. */
class Uploader implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Uploader',
		name: 'uploader',
		group: ['output'],
		version: 1,
		description: 'test',
		defaults: { name: 'Uploader' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'URL', name: 'url', type: 'string' as const, default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const binary = this.helpers.assertBinaryData(i, 'data');
			let body: Buffer | NodeJS.ReadableStream;
			let length: number;
			let contentType: string;
			if (binary.id) {
				body = await this.helpers.getBinaryStream(binary.id);
				const metadata = await this.helpers.getBinaryMetadata(binary.id);
				length = metadata.fileSize;
				contentType = metadata.mimeType ?? 'application/octet-stream';
			} else {
				body = await this.helpers.getBinaryDataBuffer(i, 'data');
				length = body.length;
				contentType = binary.mimeType;
			}
			const response = await this.helpers.httpRequest({
				method: 'PUT',
				url: this.getNodeParameter('url', i) as string,
				body,
				headers: { 'content-type': contentType, 'content-length': length },
				returnFullResponse: true,
			});
			out.push({
				json: { statusCode: response.statusCode, id: binary.id ?? null, fileName: binary.fileName ?? null, mimeType: binary.mimeType },
				binary: items[i].binary,
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

describe('engine harness: binary data and real HTTP', () => {
	let server: Awaited<ReturnType<typeof startTinyServer>>;
	beforeAll(async () => {
		server = await startTinyServer(() => ({ status: 200, json: { stored: true } }));
	});
	const onCleanup: Array<() => void> = [];
	afterAll(async () => {
		onCleanup.forEach((fn) => fn());
		await server.close();
	});
	beforeEach(() => server.requests.splice(0));

	it('stores a Buffer binary in the filesystem store and streams it out with its exact length', async () => {
		const bytes = randomBytes(70_000);
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/one` },
			inputItems: [{ json: { n: 1 }, binary: { data: binaryFromBuffer(bytes, { fileName: 'photo.jpg', mimeType: 'image/jpeg' }) } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json.statusCode).toBe(200);
		expect(json.id).toMatch(/^filesystem-v2:workflows\/harness-workflow\/executions\/\d+\/binary_data\/[0-9a-f-]+$/);
		expect(json.fileName).toBe('photo.jpg');
		expect(server.requests).toHaveLength(1);
		const req = server.requests[0];
		expect(req.method).toBe('PUT');
		expect(req.url).toBe('/put/one');
		expect(req.headers['content-type']).toBe('image/jpeg');
		expect(req.headers['content-length']).toBe(String(bytes.length));
		expect(req.headers['transfer-encoding']).toBeUndefined();
		expect(sha(req.body)).toBe(sha(bytes));
		// the output binary is the stored one and reads back byte for byte
		const out = result.items[0].binary!.data;
		expect(out.id).toBe(json.id);
		expect(sha(await readBinary(out))).toBe(sha(bytes));
	});

	it('streams a file from disk into the store (name and type from the path)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'harness-file-'));
		const file = join(dir, 'clip.mp4');
		const bytes = randomBytes(300_000);
		writeFileSync(file, bytes);
		onCleanup.push(() => rmSync(dir, { recursive: true, force: true }));
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/file` },
			inputItems: [{ binary: { data: binaryFromFile(file) } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ fileName: 'clip.mp4', mimeType: 'video/mp4' });
		expect(server.requests[0].headers['content-length']).toBe('300000');
		expect(server.requests[0].headers['content-type']).toBe('video/mp4');
		expect(sha(server.requests[0].body)).toBe(sha(bytes));
	});

	it('passes inline base64 binaries (pinned-data shape, no id) through unchanged', async () => {
		const inline = inlineBinary('hello inline', { fileName: 'note.txt', mimeType: 'text/plain' });
		expect(inline.id).toBeUndefined();
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/inline` },
			inputItems: [{ binary: { data: inline } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: null, fileName: 'note.txt', mimeType: 'text/plain' });
		expect(server.requests[0].body.toString()).toBe('hello inline');
		expect(server.requests[0].headers['content-length']).toBe('12');
	});

	it('feeds the node from pinned data on the start node', async () => {
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/pinned` },
			pinData: { Start: [{ json: { pinned: true }, binary: { data: inlineBinary('pinned bytes', { fileName: 'p.txt', mimeType: 'text/plain' }) } }] },
		});
		expect(result.error).toBeUndefined();
		expect(server.requests.map((r) => r.body.toString())).toEqual(['pinned bytes']);
	});

	it('accepts a binary stored beforehand with storeBinary', async () => {
		const stored = await storeBinary(Buffer.from('pre-stored'), { fileName: 'pre.txt' });
		expect(stored.id).toMatch(/^filesystem-v2:/);
		expect(stored).toMatchObject({ mimeType: 'text/plain', fileName: 'pre.txt', bytes: 10 });
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/stored` },
			inputItems: [{ binary: { data: stored } }],
		});
		expect(result.items[0].json.id).toBe(stored.id);
		expect(server.requests[0].body.toString()).toBe('pre-stored');
	});

	it('sniffs the MIME type with file-type when none is given (needs --experimental-vm-modules under jest)', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
		const result = await runNode({
			nodeType: new Uploader(),
			parameters: { url: `${server.url}/put/sniff` },
			inputItems: [{ binary: { data: binaryFromBuffer(png) } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.mimeType).toBe('image/png');
		expect(server.requests[0].headers['content-type']).toBe('image/png');
	});

	it('keeps stored binaries as files under the configured storage path', async () => {
		const { binaryStoragePath } = await initEngine();
		const stored = await storeBinary(Buffer.from('on disk'), { fileName: 'd.txt' });
		const relative = stored.id!.split(':')[1];
		expect(existsSync(join(binaryStoragePath, relative))).toBe(true);
	});
});
