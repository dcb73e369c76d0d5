import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { startEmulator } from './index';
import { askUploadUrl, call, put, s3Code, uploadUrlFor, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator({ seed: 7 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const list = (o: { signal?: AbortSignal } = {}) =>
	call(`${emu.baseUrl}/geteventsandalbums`, {
		headers: { authorization: `Bearer ${emu.apiKey}` },
		...o,
	});
const ask = () =>
	askUploadUrl(emu, { apiKey: emu.apiKey, linkId: 'wedding-anna-ben', fileName: 'photo.jpg' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
	const t = Date.now();
	const v = await fn();
	return [v, Date.now() - t];
}

describe('status faults', () => {
	test('429 without Retry-After: empty body (the doc describes none), then the rule is gone', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 429, times: 1 });
		const res = await list();
		expect(res.status).toBe(429);
		expect(res.headers['retry-after']).toBeUndefined();
		expect(res.text).toBe('');
		expect(emu.faults).toEqual([]);
		expect((await list()).status).toBe(200);
	});

	test('429 with Retry-After in seconds', async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 429,
			retryAfter: 7,
			times: 1,
		});
		const res = await ask();
		expect(res.status).toBe(429);
		expect(res.headers['retry-after']).toBe('7');
		expect(res.text).toBe('');
		expect((await ask()).status).toBe(200);
	});

	test('429 with Retry-After as an HTTP date', async () => {
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 429,
			retryAfterDateIn: 3,
			times: 1,
		});
		const res = await list();
		expect(res.status).toBe(429);
		const value = String(res.headers['retry-after']);
		expect(value).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		const wait = Date.parse(value) - Date.now();
		expect(wait).toBeGreaterThan(1000);
		expect(wait).toBeLessThanOrEqual(3000);
	});

	test('a Retry-After string is sent verbatim; a body can be given', async () => {
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 503,
			retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT',
			body: 'busy',
			times: 1,
		});
		const res = await list();
		expect(res.status).toBe(503);
		expect(res.headers['retry-after']).toBe('Wed, 21 Oct 2015 07:28:00 GMT');
		expect(res.text).toBe('busy');
	});

	test('500 on getuploadurl and on the PUT (S3-style XML there); nothing stored', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 500, times: 1 });
		const a = await ask();
		expect(a.status).toBe(500);
		expect(a.text).toBe('');
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: 'put', kind: 'status', status: 500, times: 1 });
		const p = await put(url, 'x');
		expect(p.status).toBe(500);
		expect(s3Code(p.text)).toBe('InternalError');
		expect(emu.uploads).toEqual([]);
		expect((await put(url, 'x')).status).toBe(200);
	});

	test('times: applies that many times then vanishes; other endpoints are untouched', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 500, times: 2 });
		expect((await list()).status).toBe(200);
		expect((await ask()).status).toBe(500);
		expect((await ask()).status).toBe(500);
		expect((await ask()).status).toBe(200);
	});

	test("endpoint '*' hits both endpoints and the PUT; without times a rule stays", async () => {
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: '*', kind: 'status', status: 502 });
		expect((await list()).status).toBe(502);
		expect((await ask()).status).toBe(502);
		expect((await put(url, 'x')).status).toBe(502);
		expect((await list()).status).toBe(502);
		emu.clearFaults();
		expect((await list()).status).toBe(200);
	});
});

describe('connection resets', () => {
	test('reset on geteventsandalbums and on getuploadurl: the socket is destroyed, no answer', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'reset', times: 1 });
		emu.addFault({ endpoint: 'getuploadurl', kind: 'reset', times: 1 });
		await expect(list()).rejects.toThrow();
		await expect(ask()).rejects.toThrow();
		expect(emu.requests.filter((r) => r.server === 'api').map((r) => r.status)).toEqual([0, 0]);
		expect((await list()).status).toBe(200);
	});

	test('reset in the middle of a PUT: part of the body read, the file is not stored', async () => {
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: 'put', kind: 'reset', afterBytes: 64 * 1024, times: 1 });
		await expect(put(url, crypto.randomBytes(4 * 1024 * 1024))).rejects.toThrow();
		// the temp file goes with the connection, soon after the client saw the reset (not within a
		// fixed 50 ms on a loaded machine)
		for (
			const until = Date.now() + 3000;
			fs.readdirSync(emu.storageDir).length > 0 && Date.now() < until;
		)
			await sleep(20);
		expect(emu.uploads).toEqual([]);
		expect(fs.readdirSync(emu.storageDir)).toEqual([]);
		expect((await put(url, 'again')).status).toBe(200);
		expect(emu.uploads).toHaveLength(1);
	});

	test('resetAfterStore: the file IS stored but the answer never comes; retrying the same address overwrites it', async () => {
		const url = await uploadUrlFor(emu);
		const body = crypto.randomBytes(10_000);
		emu.addFault({ endpoint: 'put', kind: 'resetAfterStore', times: 1 });
		await expect(put(url, body)).rejects.toThrow();
		expect(emu.uploads).toHaveLength(1);
		expect(emu.uploads[0].sha256).toBe(crypto.createHash('sha256').update(body).digest('hex'));
		expect((await put(url, body)).status).toBe(200);
		expect(emu.uploads).toHaveLength(1);
		const other = await uploadUrlFor(emu);
		expect((await put(other, body)).status).toBe(200);
		expect(emu.uploads).toHaveLength(2);
	});
});

describe('slowness', () => {
	test('delay: a slow response (a client with a short timeout gives up)', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'delay', ms: 300, times: 2 });
		const [res, ms] = await timed(() => list());
		expect(res.status).toBe(200);
		expect(ms).toBeGreaterThanOrEqual(290);
		await expect(list({ signal: AbortSignal.timeout(100) })).rejects.toThrow(/abort|timeout/i);
	});

	test("delay on the PUT with when 'after': stored first, answered late", async () => {
		const url = await uploadUrlFor(emu);
		emu.addFault({ endpoint: 'put', kind: 'delay', ms: 300, when: 'after', times: 1 });
		const [res, ms] = await timed(() => put(url, 'late answer'));
		const answeredAt = Date.now();
		expect(res.status).toBe(200);
		expect(ms).toBeGreaterThanOrEqual(290);
		// the record's time is when the file was stored: the answer came the delay after it (a fixed
		// look after 150 ms, before, missed the record on a loaded machine)
		expect(emu.uploads).toHaveLength(1);
		expect(answeredAt - Date.parse(emu.uploads[0].uploadedAt)).toBeGreaterThanOrEqual(290);
	});

	test('latencyMs adds latency to every request of both endpoints and the PUT', async () => {
		const url = await uploadUrlFor(emu);
		emu.setOptions({ latencyMs: 200 });
		for (const fn of [() => list(), () => ask(), () => put(url, 'x')]) {
			const [res, ms] = await timed(fn);
			expect(res.status).toBe(200);
			expect(ms).toBeGreaterThanOrEqual(190);
		}
	});

	test('urlTtlSeconds at start: the addresses say so and expire that fast', async () => {
		const quick = await startEmulator({ urlTtlSeconds: 2 });
		try {
			const url = await uploadUrlFor(quick);
			expect(new URL(url).searchParams.get('X-EP-Expires')).toBe('2');
		} finally {
			await quick.close();
		}
	});
});

describe('rate limit', () => {
	// The limit is a sliding one-second window on Date.now(): the clock stands still here and moves a
	// second when the test says so, so requests that take long on a loaded machine stay in one window.
	const SYSTEM_CLOCK_ONLY: Parameters<typeof jest.useFakeTimers>[0] = {
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	};
	beforeEach(() => jest.useFakeTimers(SYSTEM_CLOCK_ONLY));
	afterEach(() => jest.useRealTimers());
	const aSecondLater = () => jest.setSystemTime(Date.now() + 1000);

	test('N requests per second across both endpoints and the PUT; then 429 with Retry-After', async () => {
		const url = await uploadUrlFor(emu);
		emu.setOptions({ rateLimitPerSecond: 3 });
		expect((await list()).status).toBe(200);
		expect((await ask()).status).toBe(200);
		expect((await put(url, 'x')).status).toBe(200);
		const over = await list();
		expect(over.status).toBe(429);
		expect(over.headers['retry-after']).toBe('1');
		expect(over.text).toBe('');
		const overPut = await put(url, 'y');
		expect(overPut.status).toBe(429);
		expect(overPut.headers['retry-after']).toBe('1');
		expect(s3Code(overPut.text)).toBe('SlowDown');
		aSecondLater();
		expect((await list()).status).toBe(200);
	});

	test('apiRateLimitPerSecond: N requests per second across the two service endpoints; the PUT is never limited', async () => {
		const url = await uploadUrlFor(emu);
		emu.setOptions({ apiRateLimitPerSecond: 2 });
		expect((await list()).status).toBe(200);
		expect((await ask()).status).toBe(200);
		for (const body of ['x', 'y', 'z']) expect((await put(url, body)).status).toBe(200);
		const over = await ask();
		expect(over.status).toBe(429);
		expect(over.headers['retry-after']).toBe('1');
		expect(over.text).toBe('');
		expect((await list()).status).toBe(429);
		aSecondLater();
		expect((await ask()).status).toBe(200);
	});

	test('fixedRateWindow: the window opens with the first request after the last one closed', async () => {
		emu.setOptions({ apiRateLimitPerSecond: 2, fixedRateWindow: 1 });
		expect((await ask()).status).toBe(200);
		jest.setSystemTime(Date.now() + 700);
		expect((await ask()).status).toBe(200);
		expect((await ask()).status).toBe(429);
		// the first window closes 1 s after its first request: the next one opens with a full count,
		// although a sliding window would still hold the request of 400 ms ago
		jest.setSystemTime(Date.now() + 400);
		expect((await ask()).status).toBe(200);
		expect((await ask()).status).toBe(200);
		expect((await ask()).status).toBe(429);
	});
});

describe('bad answers', () => {
	test('badJson: a 200 whose body is not JSON (labelled application/json by default)', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'badJson', times: 1 });
		const res = await list();
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('application/json');
		expect(() => JSON.parse(res.text)).toThrow();
		emu.addFault({ endpoint: 'getuploadurl', kind: 'badJson', contentType: 'text/html', times: 1 });
		const a = await ask();
		expect(a.status).toBe(200);
		expect(a.headers['content-type']).toBe('text/html');
		expect(() => JSON.parse(a.text)).toThrow();
	});

	test('noUploadUrl: a 200 JSON answer without uploadUrl, or with the value given', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', times: 1 });
		const a = await ask();
		expect(a.status).toBe(200);
		expect(JSON.parse(a.text)).toEqual({});
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: null, times: 1 });
		expect(JSON.parse((await ask()).text)).toEqual({ uploadUrl: null });
		expect(JSON.parse((await ask()).text).uploadUrl).toMatch(/^http:/);
	});

	test('expiredUrl: an address that is already expired; badSignature: one that fails its signature', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'expiredUrl', times: 1 });
		emu.addFault({ endpoint: 'getuploadurl', kind: 'badSignature', times: 1 });
		const expired = await put(await uploadUrlFor(emu), 'x');
		expect(expired.status).toBe(403);
		expect(expired.text).toContain('<Message>Request has expired</Message>');
		const bad = await put(await uploadUrlFor(emu), 'x');
		expect(bad.status).toBe(403);
		expect(s3Code(bad.text)).toBe('SignatureDoesNotMatch');
		expect((await put(await uploadUrlFor(emu), 'x')).status).toBe(200);
		expect(emu.uploads).toHaveLength(1);
	});
});
