import { startEmulator } from './index';
import { call, makePng, put, uploadUrlFor, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const page = () => call(`${emu.baseUrl}/`);

describe('GET / (the page)', () => {
	test('server-rendered HTML with every event and album of both accounts, escaped', async () => {
		const res = await page();
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(res.headers['content-security-policy']).toContain("default-src 'none'");
		expect(res.text).toContain('Anna &amp; Ben&#39;s Wedding');
		expect(res.text).not.toContain("Anna & Ben's Wedding");
		expect(res.text).toContain('Someone Else&#39;s Event');
		for (const title of ['Photo booth', 'Ceremony', 'Booth', 'Dance floor', 'Office Opening'])
			expect(res.text).toContain(title);
		expect(res.text).toContain('id: <code>booth</code>');
		expect(res.text).toContain('albumId: <code>sp-booth</code>');
		expect(res.text).toContain('no albums field');
		expect(res.text).toContain('0 upload(s) stored');
		expect(res.text).not.toContain('data-upload-id');
		expect(res.text).not.toContain(emu.apiKey);
		expect(res.text).not.toContain(emu.otherApiKey);
	});

	test('shows each upload in its album with name, size, type and takenAt; a reload shows new uploads', async () => {
		const png = makePng();
		const url = await uploadUrlFor(emu, {
			fileName: 'booth-001.png',
			albumId: 'booth',
			takenAt: 1767225600000,
		});
		expect((await put(url, png, { 'content-type': 'image/png' })).status).toBe(200);
		const res = await page();
		const id = emu.uploads[0].id;
		expect(res.text).toContain(`data-upload-id="${id}"`);
		expect(res.text).toContain(`<img src="/files/${id}" alt="booth-001.png"`);
		expect(res.text).toContain('booth-001.png');
		expect(res.text).toContain(`(${png.length} bytes)`);
		expect(res.text).toContain('image/png');
		expect(res.text).toContain('2026-01-01T00:00:00.000Z');
		expect(res.text).toContain('1 upload(s) stored');
		// it sits in the Photo booth album section, before the Ceremony section
		const booth = res.text.indexOf('Photo booth');
		expect(res.text.indexOf(`data-upload-id="${id}"`)).toBeGreaterThan(booth);
		expect(res.text.indexOf(`data-upload-id="${id}"`)).toBeLessThan(res.text.indexOf('Ceremony'));

		const second = await uploadUrlFor(emu, { linkId: 'office-opening', fileName: 'clip.mp4' });
		await put(second, 'not really a video', { 'content-type': 'video/mp4' });
		const again = await page();
		expect(again.text).toContain('2 upload(s) stored');
		expect(again.text).toContain(`<video src="/files/${emu.uploads[1].id}"`);
		expect(again.text).toContain('taken: not given');
	});

	test('file names are HTML-escaped', async () => {
		const evil = '<img src=x onerror=alert(1)>"\'&.jpg';
		const url = await uploadUrlFor(emu, { fileName: evil });
		expect((await put(url, 'x')).status).toBe(200);
		const res = await page();
		expect(res.text).not.toContain('<img src=x');
		expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;.jpg');
	});
});

describe('GET /files/<id>', () => {
	test('serves the stored bytes with their content type; unknown ids answer 404', async () => {
		const png = makePng(10, 10);
		const url = await uploadUrlFor(emu, { fileName: 'tiny.png' });
		await put(url, png, { 'content-type': 'image/png' });
		const res = await call(`${emu.baseUrl}/files/${emu.uploads[0].id}`);
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('image/png');
		expect(res.headers['content-length']).toBe(String(png.length));
		expect(res.headers['x-content-type-options']).toBe('nosniff');
		expect(Buffer.from(res.text, 'latin1').length).toBeGreaterThan(0);
		const bytes = Buffer.from(
			await (await fetch(`${emu.baseUrl}/files/${emu.uploads[0].id}`)).arrayBuffer(),
		);
		expect(bytes.equals(png)).toBe(true);
		expect((await call(`${emu.baseUrl}/files/000000000000000000000000`)).status).toBe(404);
		expect((await call(`${emu.baseUrl}/files/..%2Fetc%2Fpasswd`)).status).toBe(404);
	});

	test('links an image type browsers cannot show (HEIC) instead of a broken image', async () => {
		const url = await uploadUrlFor(emu, { fileName: 'first-dance.heic', albumId: 'booth' });
		expect((await put(url, Buffer.from('heic bytes'), { 'content-type': 'image/heic' })).status).toBe(200);
		const res = await page();
		expect(res.text).toContain('image/heic (no preview in browsers)</a>');
		expect(res.text).not.toContain('alt="first-dance.heic"');
	});
});
