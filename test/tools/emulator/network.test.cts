import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { startEmulator } from './index';
import { call, put, uploadUrlFor, type Emu } from './testkit.cts';

/**
 * The network options and faults: the storage reading PUT bodies at a fixed rate, downloads served
 * at a fixed rate, servers that stop sending before their headers or in the middle of a body.
 */
let emu: Emu;
beforeAll(async () => (emu = await startEmulator()));
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Waits (up to 3 s) until `check` holds: cleanup after a client left runs on the server's time. */
async function eventually(check: () => boolean): Promise<void> {
	for (let i = 0; i < 60 && !check(); i++) await sleep(50);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
	const started = performance.now();
	const value = await fn();
	return [value, performance.now() - started];
}

interface Partial {
	status?: number;
	headers?: http.IncomingHttpHeaders;
	bytes: number;
	/** How the request ended: 'end' (whole answer), 'waiting' (still open when we left). */
	ended: 'end' | 'waiting';
	/** Body bytes the client had written when we left (a PUT). */
	written: number;
}

/**
 * A request that is given `waitMs` and then abandoned: what arrived by then, and whether the answer
 * was complete. A PUT body is written as fast as the socket takes it.
 */
function attempt(
	url: string,
	o: { method?: string; headers?: Record<string, string>; body?: Buffer; waitMs: number },
): Promise<Partial> {
	return new Promise((resolve) => {
		const result: Partial = { bytes: 0, ended: 'waiting', written: 0 };
		const req = http.request(url, { method: o.method ?? 'GET', headers: o.headers });
		const done = () => {
			clearTimeout(timer);
			req.destroy();
			resolve(result);
		};
		const timer = setTimeout(done, o.waitMs);
		req.on('response', (res) => {
			result.status = res.statusCode;
			result.headers = res.headers;
			res.on('data', (c: Buffer) => (result.bytes += c.length));
			res.on('end', () => {
				result.ended = 'end';
				done();
			});
			res.on('error', () => undefined);
		});
		req.on('error', () => done());
		if (!o.body) return void req.end();
		const block = 64 * 1024;
		let offset = 0;
		const pump = () => {
			while (offset < o.body!.length) {
				const part = o.body!.subarray(offset, offset + block);
				offset += part.length;
				const more = req.write(part, () => (result.written += part.length));
				if (!more) return void req.once('drain', pump);
			}
			req.end();
		};
		pump();
	});
}

describe('storageReadBytesPerSecond: the storage reads PUT bodies like an uplink of that rate', () => {
	test('2 MiB at 1 MiB/s take about 2 s and arrive whole', async () => {
		emu.setOptions({ storageReadBytesPerSecond: 1024 * 1024 });
		const url = await uploadUrlFor(emu, { fileName: 'clip.mp4' });
		const body = crypto.randomBytes(2 * 1024 * 1024);
		const [res, ms] = await timed(() => put(url, body, { 'content-type': 'video/mp4' }));
		expect(res.status).toBe(200);
		expect(emu.uploads[0].sha256).toBe(sha256(body));
		expect(ms).toBeGreaterThan(1700);
		expect(ms).toBeLessThan(4000);
	});

	test('PUTs at the same time share the rate (one link), and the service is not slowed', async () => {
		emu.setOptions({ storageReadBytesPerSecond: 1024 * 1024 });
		const urls = [await uploadUrlFor(emu), await uploadUrlFor(emu)];
		const bodies = urls.map(() => crypto.randomBytes(1024 * 1024));
		const [answers, ms] = await timed(() => Promise.all(urls.map((url, i) => put(url, bodies[i]))));
		expect(answers.map((a) => a.status)).toEqual([200, 200]);
		expect(ms).toBeGreaterThan(1700);
		expect(ms).toBeLessThan(4000);
		const [list, listMs] = await timed(() =>
			call(`${emu.baseUrl}/geteventsandalbums`, {
				headers: { authorization: `Bearer ${emu.apiKey}` },
			}),
		);
		expect(list.status).toBe(200);
		expect(listMs).toBeLessThan(500);
	});

	test('0 (the default) reads as fast as the body comes', async () => {
		const url = await uploadUrlFor(emu);
		const [res, ms] = await timed(() => put(url, crypto.randomBytes(8 * 1024 * 1024)));
		expect(res.status).toBe(200);
		expect(ms).toBeLessThan(1500);
	});
});

describe('downloads: GET <storage>/downloads/<name> at downloadBytesPerSecond', () => {
	test('a registered file comes back whole with its type and length; an unknown name is 404', async () => {
		const bytes = crypto.randomBytes(100_000);
		const url = emu.addDownload('party photo.jpg', bytes, { contentType: 'image/jpeg' });
		expect(url).toBe(`${emu.storageUrl}/downloads/party%20photo.jpg`);
		const res = await fetch(url);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('image/jpeg');
		expect(res.headers.get('content-length')).toBe('100000');
		expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(bytes));
		expect((await fetch(`${emu.storageUrl}/downloads/nothing.jpg`)).status).toBe(404);
	});

	test('length: false sends it chunked, without Content-Length', async () => {
		const url = emu.addDownload('a.bin', Buffer.alloc(5000, 7), { length: false });
		const res = await fetch(url);
		expect(res.headers.get('content-length')).toBeNull();
		expect(res.headers.get('transfer-encoding')).toBe('chunked');
		expect(Buffer.from(await res.arrayBuffer()).length).toBe(5000);
	});

	test('300 kB at 200 kB/s take about 1.5 s', async () => {
		emu.setOptions({ downloadBytesPerSecond: 200_000 });
		const url = emu.addDownload('slow.bin', crypto.randomBytes(300_000));
		const [length, ms] = await timed(
			async () => (await (await fetch(url)).arrayBuffer()).byteLength,
		);
		expect(length).toBe(300_000);
		expect(ms).toBeGreaterThan(1300);
		expect(ms).toBeLessThan(3000);
	});

	test('downloads are never rate limited, delayed by latencyMs or hit by "*" rules', async () => {
		emu.setOptions({ rateLimitPerSecond: 1, latencyMs: 400 });
		emu.addFault({ endpoint: '*', kind: 'status', status: 500 });
		const url = emu.addDownload('x.bin', 'abc');
		const [statuses, ms] = await timed(async () => [
			(await fetch(url)).status,
			(await fetch(url)).status,
			(await fetch(url)).status,
		]);
		expect(statuses).toEqual([200, 200, 200]);
		expect(ms).toBeLessThan(400);
	});

	test('faults of endpoint "download": status, reset, drip', async () => {
		const url = emu.addDownload('f.bin', crypto.randomBytes(1000));
		emu.addFault({ endpoint: 'download', kind: 'status', status: 503, times: 1 });
		expect((await fetch(url)).status).toBe(503);
		emu.addFault({ endpoint: 'download', kind: 'reset', times: 1 });
		await expect(fetch(url).then((r) => r.arrayBuffer())).rejects.toThrow();
		emu.addFault({
			endpoint: 'download',
			kind: 'drip',
			ms: 100,
			contentType: 'image/jpeg',
			times: 1,
		});
		const dripped = await attempt(url, { waitMs: 650 });
		expect(dripped).toMatchObject({ status: 200, ended: 'waiting' });
		expect(dripped.headers?.['content-type']).toBe('image/jpeg');
		expect(dripped.bytes).toBeGreaterThanOrEqual(4);
		expect(dripped.bytes).toBeLessThanOrEqual(8);
		expect((await fetch(url)).status).toBe(200);
	});

	test('the control API registers a download for other processes', async () => {
		const res = await fetch(`${emu.baseUrl}/__control/downloads/remote.png?length=false`, {
			method: 'PUT',
			headers: { 'content-type': 'image/png' },
			body: Buffer.from('not really a png'),
		});
		const { url } = (await res.json()) as { url: string };
		expect(url).toBe(`${emu.storageUrl}/downloads/remote.png`);
		const got = await fetch(url);
		expect(got.headers.get('content-type')).toBe('image/png');
		expect(got.headers.get('content-length')).toBeNull();
		expect(await got.text()).toBe('not really a png');
	});
});

describe('stall: a server that stops sending', () => {
	test('a download that stops before its headers sends nothing at all', async () => {
		const url = emu.addDownload('f.bin', crypto.randomBytes(1000));
		emu.addFault({ endpoint: 'download', kind: 'stall', times: 1 });
		expect(await attempt(url, { waitMs: 800 })).toEqual({ bytes: 0, ended: 'waiting', written: 0 });
		expect((await fetch(url)).status).toBe(200);
	});

	test('a download that stops in the middle sends its headers and afterBytes bytes, then nothing', async () => {
		const url = emu.addDownload('f.bin', crypto.randomBytes(300_000));
		emu.addFault({ endpoint: 'download', kind: 'stall', afterBytes: 100_000, times: 1 });
		const partial = await attempt(url, { waitMs: 800 });
		expect(partial).toMatchObject({ status: 200, bytes: 100_000, ended: 'waiting' });
		expect(partial.headers?.['content-length']).toBe('300000');
	});

	test('a service endpoint that stops before its headers, or after a few bytes of its answer', async () => {
		const list = `${emu.baseUrl}/geteventsandalbums`;
		const headers = { authorization: `Bearer ${emu.apiKey}` };
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'stall', times: 1 });
		expect(await attempt(list, { headers, waitMs: 800 })).toMatchObject({
			bytes: 0,
			ended: 'waiting',
		});
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'stall', afterBytes: 5, times: 1 });
		expect(await attempt(list, { headers, waitMs: 800 })).toMatchObject({
			status: 200,
			bytes: 5,
			ended: 'waiting',
		});
		expect((await call(list, { headers })).status).toBe(200);
	});

	test('a storage that stops reading in the middle of a PUT: the client cannot send the rest, no answer, nothing stored; reset() ends the held request', async () => {
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: 'put', kind: 'stall', afterBytes: 256 * 1024, times: 1 });
		const size = 32 * 1024 * 1024;
		const result = await attempt(url, {
			method: 'PUT',
			headers: { 'content-type': 'image/jpeg', 'content-length': String(size) },
			body: crypto.randomBytes(size),
			waitMs: 1500,
		});
		expect(result.status).toBeUndefined();
		// what the socket buffers hold, but far from all of it
		expect(result.written).toBeLessThan(size / 2);
		expect(emu.uploads).toEqual([]);
		// a server that reads nothing does not see the client leave: reset() lets go of it
		emu.reset();
		await eventually(() => fs.readdirSync(emu.storageDir).length === 0);
		expect(fs.readdirSync(emu.storageDir)).toEqual([]);
	});

	test('a storage that reads the whole PUT and never answers (no idle timeout of its own); nothing stored', async () => {
		emu.setOptions({ bodyIdleTimeoutMs: 300 });
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: 'put', kind: 'stall', times: 1 });
		const body = crypto.randomBytes(512 * 1024);
		const result = await attempt(url, {
			method: 'PUT',
			headers: { 'content-type': 'image/jpeg', 'content-length': String(body.length) },
			body,
			waitMs: 1200,
		});
		expect(result).toMatchObject({ ended: 'waiting', written: body.length });
		expect(result.status).toBeUndefined();
		await eventually(() => fs.readdirSync(emu.storageDir).length === 0);
		expect(emu.uploads).toEqual([]);
		expect(fs.readdirSync(emu.storageDir)).toEqual([]);
		expect((await put(url, body)).status).toBe(200);
	});

	test("stall and drip rules are checked: drip applies to the PUT's answer too, afterBytes must be a count", () => {
		expect(() => emu.addFault({ endpoint: 'put', kind: 'drip', ms: 100 } as never)).not.toThrow();
		expect(() => emu.addFault({ endpoint: 'put', kind: 'badJson' } as never)).toThrow(
			/only applies/,
		);
		expect(() =>
			emu.addFault({ endpoint: 'download', kind: 'stall', afterBytes: -1 } as never),
		).toThrow(/afterBytes/);
		expect(() => emu.addFault({ endpoint: 'download', kind: 'badJson' } as never)).toThrow(
			/only applies/,
		);
		emu.clearFaults();
	});
});
