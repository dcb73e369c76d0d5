import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { startEmulator } from './index';
import { call, put, raw, rawPutHead, s3Code, uploadUrlFor, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stored = () => fs.readdirSync(emu.storageDir);

/** A refusal stores nothing: no record, no file, no temp file left behind. */
function expectNothingStored() {
	expect(emu.uploads).toEqual([]);
	expect(stored()).toEqual([]);
}

/**
 * The same, for a refusal answered before the connection is done with (a body stalled, cut short or
 * longer than announced): the emulator answers first and then ends the connection, and its temp
 * file goes with the connection, within `withinMs` (not at once on a loaded machine: a fixed 50 ms
 * pause failed at load ~13).
 */
async function expectNothingStoredSoon(withinMs = 3000) {
	const until = Date.now() + withinMs;
	while (stored().length > 0 && Date.now() < until) await sleep(20);
	expectNothingStored();
}

describe('PUT <uploadUrl>: success', () => {
	test('200, empty body, quoted-md5 ETag; bytes, type, size, sha256 and metadata kept on disk and in emu.uploads', async () => {
		const url = await uploadUrlFor(emu, {
			fileName: "Anna's photo (1).JPG",
			albumId: 'booth',
			takenAt: 1767225600123,
		});
		const body = crypto.randomBytes(70_000);
		const res = await put(url, body, { 'content-type': 'image/jpeg' });
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(res.headers.etag).toBe(`"${crypto.createHash('md5').update(body).digest('hex')}"`);
		expect(emu.uploads).toHaveLength(1);
		const u = emu.uploads[0];
		expect(u).toMatchObject({
			linkId: 'wedding-anna-ben',
			albumId: 'booth',
			fileName: "Anna's photo (1).JPG",
			contentType: 'image/jpeg',
			size: body.length,
			sha256: crypto.createHash('sha256').update(body).digest('hex'),
			takenAt: 1767225600123,
		});
		expect(fs.readFileSync(u.path).equals(body)).toBe(true);
		expect(JSON.parse(fs.readFileSync(`${u.path}.json`, 'utf8'))).toEqual(u);
		expect(stored().sort()).toEqual([u.id, `${u.id}.json`]);
		expect(new Date(u.uploadedAt).getTime()).toBeGreaterThan(Date.now() - 10_000);
	});

	test('no album and no takenAt are stored as null; unknown extensions are application/octet-stream', async () => {
		const url = await uploadUrlFor(emu, { linkId: 'office-opening', fileName: 'readme' });
		const res = await put(url, 'abc', { 'content-type': 'application/octet-stream' });
		expect(res.status).toBe(200);
		expect(emu.uploads[0]).toMatchObject({
			linkId: 'office-opening',
			albumId: null,
			takenAt: null,
			contentType: 'application/octet-stream',
			size: 3,
		});
	});

	test('the same address used again overwrites the same object (one record, new bytes), as S3 does', async () => {
		const url = await uploadUrlFor(emu);
		expect((await put(url, 'first')).status).toBe(200);
		expect((await put(url, 'second!')).status).toBe(200);
		expect(emu.uploads).toHaveLength(1);
		expect(fs.readFileSync(emu.uploads[0].path, 'utf8')).toBe('second!');
	});

	test('a large body is streamed to disk, not held in memory', async () => {
		// 128 MiB by default; EMULATOR_UPLOAD_MB=1024 proves a 1 GiB upload (about 6 s).
		const size = Number(process.env.EMULATOR_UPLOAD_MB ?? 128) * 1024 * 1024;
		const url = await uploadUrlFor(emu, { fileName: 'video.mp4' });
		const block = crypto.randomBytes(1024 * 1024);
		const hash = crypto.createHash('sha256');
		let sent = 0;
		const source = new Readable({
			read() {
				if (sent >= size) {
					this.push(null);
				} else {
					sent += block.length;
					hash.update(block);
					this.push(block);
				}
			},
		});
		const base = process.memoryUsage();
		let peak = 0;
		const sampler = setInterval(() => {
			const m = process.memoryUsage();
			peak = Math.max(peak, m.heapUsed + m.arrayBuffers - (base.heapUsed + base.arrayBuffers));
		}, 20);
		const res = await call(url, {
			method: 'PUT',
			headers: { 'content-type': 'video/mp4', 'content-length': String(size) },
			body: source,
		});
		clearInterval(sampler);
		expect(res.status).toBe(200);
		expect(emu.uploads[0].size).toBe(size);
		expect(emu.uploads[0].sha256).toBe(hash.digest('hex'));
		expect(fs.statSync(emu.uploads[0].path).size).toBe(size);
		expect(peak).toBeLessThan(64 * 1024 * 1024);
	});
});

describe('PUT <uploadUrl>: refusals store nothing', () => {
	test.each([
		['another type', { 'content-type': 'image/png' }, 'image/png'],
		[
			'a type with a parameter',
			{ 'content-type': 'image/jpeg; charset=binary' },
			'image/jpeg; charset=binary',
		],
		['a type in other case', { 'content-type': 'Image/JPEG' }, 'Image/JPEG'],
		[
			'the generic type',
			{ 'content-type': 'application/octet-stream' },
			'application/octet-stream',
		],
	])('403 SignatureDoesNotMatch when the Content-Type is %s', async (_n, headers, sent) => {
		const url = await uploadUrlFor(emu, { fileName: 'photo.jpg' });
		const res = await put(url, 'jpeg bytes', headers);
		expect(res.status).toBe(403);
		expect(res.headers['content-type']).toBe('application/xml');
		expect(s3Code(res.text)).toBe('SignatureDoesNotMatch');
		expect(res.text).toContain(
			`signed for Content-Type &quot;image/jpeg&quot;; the request sent &quot;${sent}&quot;`,
		);
		expectNothingStored();
	});

	test('403 SignatureDoesNotMatch when no Content-Type is sent', async () => {
		const url = await uploadUrlFor(emu);
		const res = await put(url, 'x', {});
		expect(res.status).toBe(403);
		expect(s3Code(res.text)).toBe('SignatureDoesNotMatch');
		expect(res.text).toContain('the request sent no Content-Type');
		expectNothingStored();
	});

	test.each([
		['the file name in the path changed', (u: string) => u.replace(/\/[^/?]+\?/, '/other.jpg?')],
		['the path re-encoded (decoded apostrophe)', (u: string) => u.replace('%27', "'")],
		['the expiry lengthened', (u: string) => u.replace('X-EP-Expires=300', 'X-EP-Expires=3000')],
		['a parameter added', (u: string) => `${u}&x-id=PutObject`],
		['the signature altered', (u: string) => u.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))],
	])('403 SignatureDoesNotMatch when %s', async (_n, change) => {
		const url = await uploadUrlFor(emu, { fileName: "Ann's photo.jpg" });
		expect(change(url)).not.toBe(url);
		const res = await put(change(url), 'x');
		expect(res.status).toBe(403);
		expect(s3Code(res.text)).toBe('SignatureDoesNotMatch');
		expectNothingStored();
		expect((await put(url, 'x')).status).toBe(200);
	});

	test('400 AuthorizationQueryParametersError when the signature or the query is missing', async () => {
		const url = await uploadUrlFor(emu);
		for (const bad of [url.replace(/&X-EP-Signature=[0-9a-f]+$/, ''), url.split('?')[0]]) {
			const res = await put(bad, 'x');
			expect(res.status).toBe(400);
			expect(s3Code(res.text)).toBe('AuthorizationQueryParametersError');
		}
		expectNothingStored();
	});

	test.each(['GET', 'POST', 'DELETE'])(
		'403 SignatureDoesNotMatch for %s on a PUT address',
		async (method) => {
			const url = await uploadUrlFor(emu);
			const res = await call(url, {
				method: method as 'GET',
				headers: { 'content-type': 'image/jpeg' },
			});
			expect(res.status).toBe(403);
			expect(s3Code(res.text)).toBe('SignatureDoesNotMatch');
			expectNothingStored();
		},
	);

	test('403 AccessDenied "Request has expired" once the validity (1 s here) has passed', async () => {
		emu.setOptions({ urlTtlSeconds: 1 });
		const url = await uploadUrlFor(emu);
		expect(new URL(url).searchParams.get('X-EP-Expires')).toBe('1');
		await sleep(1100);
		const res = await put(url, 'late');
		expect(res.status).toBe(403);
		expect(s3Code(res.text)).toBe('AccessDenied');
		expect(res.text).toContain('<Message>Request has expired</Message>');
		expectNothingStored();
		const fresh = await uploadUrlFor(emu);
		expect((await put(fresh, 'in time')).status).toBe(200);
	});

	test('501 NotImplemented for Transfer-Encoding: chunked (a body without a length)', async () => {
		const url = await uploadUrlFor(emu);
		const res = await call(url, {
			method: 'PUT',
			headers: { 'content-type': 'image/jpeg' },
			body: Readable.from([Buffer.from('ab'), Buffer.from('cd')]),
		});
		expect(res.status).toBe(501);
		expect(s3Code(res.text)).toBe('NotImplemented');
		expect(res.text).toContain('<Header>Transfer-Encoding</Header>');
		expect(emu.requests.at(-1)?.headers['transfer-encoding']).toBe('chunked');
		expectNothingStored();
	});

	test('411 MissingContentLength when no Content-Length is sent', async () => {
		const url = await uploadUrlFor(emu);
		const answer = await raw(url, [
			rawPutHead(url, { 'Content-Type': 'image/jpeg', Connection: 'close' }),
		]);
		expect(answer).toMatch(/^HTTP\/1.1 411 /);
		expect(s3Code(answer)).toBe('MissingContentLength');
		expectNothingStored();
	});

	test.each([
		['Authorization', { authorization: 'Bearer ep_demo_4f7c2b9e1a6d4c8b' }],
		['X-API-Key', { 'x-api-key': 'ep_demo_4f7c2b9e1a6d4c8b' }],
	])('400 InvalidArgument when an %s header is sent with the PUT', async (name, extra) => {
		const url = await uploadUrlFor(emu);
		const res = await put(url, 'x', { 'content-type': 'image/jpeg', ...extra });
		expect(res.status).toBe(400);
		expect(s3Code(res.text)).toBe('InvalidArgument');
		expect(res.text).toContain(`<ArgumentName>${name}</ArgumentName>`);
		expect(res.text).not.toContain('ep_demo_4f7c2b9e1a6d4c8b');
		expectNothingStored();
	});

	test('400 IncompleteBody when the body is shorter than Content-Length', async () => {
		const url = await uploadUrlFor(emu);
		const head = rawPutHead(url, { 'Content-Type': 'image/jpeg', 'Content-Length': '10' });
		const answer = await raw(url, [head, 'short'], { endInput: true });
		expect(answer).toMatch(/^HTTP\/1.1 400 /);
		expect(s3Code(answer)).toBe('IncompleteBody');
		await expectNothingStoredSoon();
	});

	test('400 when the body is longer than Content-Length', async () => {
		const url = await uploadUrlFor(emu);
		const head = rawPutHead(url, { 'Content-Type': 'image/jpeg', 'Content-Length': '5' });
		const answer = await raw(url, [head, 'hello, and more bytes than announced']);
		expect(answer).toMatch(/^HTTP\/1.1 400 /);
		expect(answer).not.toContain('200 OK');
		expect(s3Code(answer)).toBe('BadRequest');
		await expectNothingStoredSoon();
	});

	test('400 RequestTimeout when the body stalls', async () => {
		emu.setOptions({ bodyIdleTimeoutMs: 200 });
		const url = await uploadUrlFor(emu);
		const head = rawPutHead(url, { 'Content-Type': 'image/jpeg', 'Content-Length': '100' });
		const answer = await raw(url, [head, 'only a part']);
		expect(answer).toMatch(/^HTTP\/1.1 400 /);
		expect(s3Code(answer)).toBe('RequestTimeout');
		await expectNothingStoredSoon();
	});

	test('400 EntityTooLarge over the maximum size', async () => {
		emu.setOptions({ maxUploadBytes: 10 });
		const url = await uploadUrlFor(emu);
		const res = await put(url, '01234567890');
		expect(res.status).toBe(400);
		expect(s3Code(res.text)).toBe('EntityTooLarge');
		expectNothingStored();
		expect((await put(url, '0123456789')).status).toBe(200);
	});

	test('a refused PUT is still answered on a kept-alive connection (the body was read first)', async () => {
		const url = await uploadUrlFor(emu);
		const first = await put(url, crypto.randomBytes(200_000), { 'content-type': 'image/png' });
		expect(first.status).toBe(403);
		const second = await put(url, 'ok');
		expect(second.status).toBe(200);
	});
});

test('the storage folder holds only what succeeded; files land under storageDir', async () => {
	const url = await uploadUrlFor(emu);
	await put(url, 'x', { 'content-type': 'image/gif' });
	await put(url, 'y');
	expect(stored()).toHaveLength(2);
	expect(path.dirname(emu.uploads[0].path)).toBe(emu.storageDir);
});
