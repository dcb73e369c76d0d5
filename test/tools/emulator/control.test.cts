import * as fs from 'node:fs';
import * as net from 'node:net';
import { startEmulator } from './index';
import { call, put, uploadUrlFor, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const control = (path: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', body?: unknown) =>
	call(`${emu.baseUrl}/__control/${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
const list = () =>
	call(`${emu.baseUrl}/geteventsandalbums`, { headers: { authorization: `Bearer ${emu.apiKey}` } });

describe('control API', () => {
	test('POST /__control/faults adds one rule, an array, or { rules }; GET lists; DELETE clears', async () => {
		const one = await control('faults', 'POST', {
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 429,
			retryAfter: 2,
			times: 1,
		});
		expect(one.status).toBe(200);
		expect(JSON.parse(one.text).faults).toEqual([
			{ endpoint: 'geteventsandalbums', kind: 'status', status: 429, retryAfter: 2, times: 1 },
		]);
		const hit = await list();
		expect(hit.status).toBe(429);
		expect(hit.headers['retry-after']).toBe('2');
		expect((await list()).status).toBe(200);

		await control('faults', 'POST', [
			{ endpoint: 'put', kind: 'reset' },
			{ endpoint: 'getuploadurl', kind: 'noUploadUrl' },
		]);
		await control('faults', 'POST', { rules: [{ endpoint: '*', kind: 'delay', ms: 1 }] });
		expect(
			JSON.parse((await control('faults')).text).faults.map((r: { kind: string }) => r.kind),
		).toEqual(['reset', 'noUploadUrl', 'delay']);
		expect(emu.faults).toHaveLength(3);
		expect(JSON.parse((await control('faults', 'DELETE')).text)).toEqual({ faults: [] });
		expect(emu.faults).toEqual([]);
	});

	test('an invalid rule is refused with 400 and nothing of that request is added', async () => {
		const res = await control('faults', 'POST', [
			{ endpoint: 'put', kind: 'reset' },
			{ endpoint: 'put', kind: 'nope' },
		]);
		expect(res.status).toBe(400);
		expect(JSON.parse(res.text)).toMatchObject({
			code: 'INVALID_CONTROL_REQUEST',
			message: expect.stringMatching(/kind must be one of/),
		});
		expect(emu.faults).toEqual([]);
		const broken = await call(`${emu.baseUrl}/__control/faults`, { method: 'POST', body: '{' });
		expect(broken.status).toBe(400);
	});

	test('POST /__control/options changes urlTtlSeconds, latencyMs, rateLimitPerSecond, seed; refuses unknown or bad values', async () => {
		const res = await control('options', 'POST', {
			urlTtlSeconds: 5,
			rateLimitPerSecond: 100,
			seed: 3,
		});
		expect(res.status).toBe(200);
		expect(JSON.parse(res.text).options).toMatchObject({
			urlTtlSeconds: 5,
			rateLimitPerSecond: 100,
			latencyMs: 0,
		});
		expect(new URL(await uploadUrlFor(emu)).searchParams.get('X-EP-Expires')).toBe('5');
		expect(JSON.parse((await control('options')).text).options.urlTtlSeconds).toBe(5);
		for (const bad of [
			{ urlTtlSeconds: 0 },
			{ latencyMs: -1 },
			{ latencyMs: '5' },
			{ colour: 'red' },
			[1],
		]) {
			const r = await control('options', 'POST', bad);
			expect(r.status).toBe(400);
			expect(JSON.parse(r.text).code).toBe('INVALID_CONTROL_REQUEST');
		}
		expect(emu.options.urlTtlSeconds).toBe(5);
	});

	test('GET /__control/uploads lists what was stored; POST /__control/reset clears everything and restores options', async () => {
		const url = await uploadUrlFor(emu, { albumId: 'ceremony' });
		expect((await put(url, 'bytes')).status).toBe(200);
		const listed = JSON.parse((await control('uploads')).text).uploads;
		expect(listed).toEqual(JSON.parse(JSON.stringify(emu.uploads)));
		expect(listed[0]).toMatchObject({ linkId: 'wedding-anna-ben', albumId: 'ceremony', size: 5 });
		const file = emu.uploads[0].path;
		await control('faults', 'POST', { endpoint: 'put', kind: 'reset' });
		await control('options', 'POST', { latencyMs: 10 });
		const reset = await control('reset', 'POST');
		expect(reset.status).toBe(200);
		expect(emu.uploads).toEqual([]);
		expect(emu.faults).toEqual([]);
		expect(emu.options.latencyMs).toBe(0);
		expect(fs.existsSync(file)).toBe(false);
		expect(fs.existsSync(`${file}.json`)).toBe(false);
		expect(emu.requests).toEqual([]);
	});

	test('GET /__control/requests shows both servers, with credential headers redacted', async () => {
		await list();
		await call(`${emu.baseUrl}/geteventsandalbums`, { headers: { 'x-api-key': emu.apiKey } });
		await put(await uploadUrlFor(emu), 'x', { 'content-type': 'image/png' });
		const res = await control('requests');
		const requests = JSON.parse(res.text).requests;
		expect(
			requests.map((r: { server: string; method: string; status: number }) => [
				r.server,
				r.method,
				r.status,
			]),
		).toEqual([
			['api', 'GET', 200],
			['api', 'GET', 200],
			['api', 'POST', 200],
			['storage', 'PUT', 403],
			['api', 'GET', 0],
		]);
		expect(requests[0].headers.authorization).toBe('[redacted]');
		expect(requests[1].headers['x-api-key']).toBe('[redacted]');
		expect(res.text).not.toContain(emu.apiKey);
		// in-process, the log keeps the real headers for assertions
		expect(emu.requests[0].headers.authorization).toBe(`Bearer ${emu.apiKey}`);
	});

	test('the control API is neither rate limited nor faulted; unknown control routes answer 404', async () => {
		emu.setOptions({ rateLimitPerSecond: 1 });
		emu.addFault({ endpoint: '*', kind: 'status', status: 500 });
		for (let i = 0; i < 5; i++) expect((await control('uploads')).status).toBe(200);
		expect((await control('nothing')).status).toBe(404);
	});
});

/** True when a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
	return new Promise<boolean>((resolve) => {
		const socket = net.connect(port, host);
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

describe('network', () => {
	test('both servers listen on 127.0.0.1, on different ports', () => {
		const a = new URL(emu.baseUrl);
		const s = new URL(emu.storageUrl);
		expect(a.hostname).toBe('127.0.0.1');
		expect(s.hostname).toBe('127.0.0.1');
		expect(a.port).not.toBe(s.port);
	});

	// Linux routes all of 127.0.0.0/8 to loopback: a server bound to every address (0.0.0.0) answers on
	// 127.0.0.2 too, one bound to 127.0.0.1 only does not. Loopback only, no traffic leaves the machine,
	// and it runs on every Linux machine (it used to probe an external IPv4 address and pass without
	// checking anything where there was none). Elsewhere 127.0.0.2 may not exist: skipped by name.
	const linuxOnly = process.platform === 'linux' ? test : test.skip;
	linuxOnly('they are bound to 127.0.0.1 only: nothing answers on 127.0.0.2 (Linux)', async () => {
		const everywhere = net.createServer((socket) => socket.destroy());
		await new Promise<void>((resolve) => everywhere.listen(0, '0.0.0.0', resolve));
		const probePort = (everywhere.address() as net.AddressInfo).port;
		try {
			// the probe itself works: a server on every address is reached through 127.0.0.2
			expect(await connects('127.0.0.2', probePort)).toBe(true);
		} finally {
			await new Promise((resolve) => everywhere.close(resolve));
		}
		for (const url of [emu.baseUrl, emu.storageUrl]) {
			expect({
				url,
				reachedOn127002: await connects('127.0.0.2', Number(new URL(url).port)),
			}).toEqual({
				url,
				reachedOn127002: false,
			});
		}
	});
});
