import { useFileHost } from '../node/fileHost.cts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { runEventPics, useEmulator, GET_ALL_EVENTS } from '../node/fixture.cts';

/**
 * Threat: a Base URL http://localhost (the emulator, a local set-up) goes through HTTP_PROXY, so the
 * API key travels in clear text to the proxy. n8n's request helper routes by the environment
 * (proxy-from-env: HTTP_PROXY / HTTPS_PROXY / ALL_PROXY, except what NO_PROXY lists) with no
 * exception for loopback, and a community node can neither read the environment nor tell n8n "no
 * proxy" (its `proxy` option falls back to the environment). So docs/security.md says it, and this test
 * keeps it true: the day n8n keeps loopback off the proxy, the first test fails.
 */
describe('security: HTTP_PROXY and a loopback Base URL', () => {
	const emu = useEmulator();
	const proxy = useFileHost(); // also answers as an HTTP proxy, and logs the host asked for
	const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
	afterAll(() => {
		for (const [name, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	const listEvents = async () =>
		await runEventPics({
			emu,
			baseUrl: emu.baseUrl.replace('127.0.0.1', 'localhost'),
			parameters: GET_ALL_EVENTS,
		});

	it('without NO_PROXY, n8n sends the call to http://localhost through the proxy', async () => {
		process.env.HTTP_PROXY = proxy.url;
		delete process.env.NO_PROXY;
		await listEvents();
		const port = new URL(emu.baseUrl).port;
		expect(proxy.requests).toContainEqual({
			method: 'GET',
			path: '/geteventsandalbums',
			host: `localhost:${port}`,
			addressed: `localhost:${port}`,
		});
		expect(emu.requests).toHaveLength(0);
	});

	it('with NO_PROXY=localhost,127.0.0.1,::1 the call goes straight to the Base URL', async () => {
		process.env.HTTP_PROXY = proxy.url;
		process.env.NO_PROXY = 'localhost,127.0.0.1,::1';
		const result = await listEvents();
		expect(result.items.length).toBeGreaterThan(0);
		expect(proxy.requests).toHaveLength(0);
	});

	it('docs/security.md says so under "Proxies", with the NO_PROXY to set', () => {
		const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'security.md'), 'utf8');
		const start = doc.indexOf('\n## Proxies\n');
		expect(start).toBeGreaterThan(-1);
		const proxies = doc.slice(start, doc.indexOf('\n## ', start + 1));
		expect(proxies).toContain('HTTP_PROXY');
		expect(proxies).toContain('NO_PROXY=localhost,127.0.0.1,::1');
	});
});
