import { runEventPics, uploadParameters, useEmulator } from '../node/fixture.cts';
import type { FileHost } from '../node/fileHost.cts';
import { proxyThrough, serve, startFileHost } from '../node/fileHost.cts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { connectNames, resolveNames, routeAddresses } from '../node/names.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require('@n8n/di');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SsrfProtectionConfig } = require('@n8n/config');

/**
 * Threat: a public-looking host name that resolves to an internal address. The literal checks see
 * only the name, so `files.example.test` -> 127.0.0.1 was fetched (an internal JSON file went into
 * the album). n8n's egress filter resolves the name: the URL source asks it before every hop.
 * Here the test world's DNS (../node/names.cts) resolves files.example.test to 127.0.0.1 and
 * files.example.com to a public address; the file host is every name's HTTP proxy, so a request the
 * node failed to refuse would reach it, where the test sees it. n8n's SSRF protection is off, as by
 * default: the node asks the filter 'enforced'.
 */

const SECRET = Buffer.from('{"AccessKeyId":"ASIA-TEST","SecretAccessKey":"do-not-upload"}');
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x55)]);

const emu = useEmulator();
let host: FileHost;
let restoreProxy: () => void;

beforeAll(async () => {
	Container.get(SsrfProtectionConfig).enabled = false;
	resolveNames({
		'files.example.test': '127.0.0.1',
		'files.example.com': '93.184.215.14',
		// public to the check, then this machine (DNS rebinding)
		'rebind.example.com': ['93.184.215.14', '127.0.0.1'],
	});
	host = await startFileHost();
	restoreProxy = proxyThrough(host);
	host.route('/secret.json', serve.file(SECRET, 'application/json'));
	host.route('/photo.jpg', serve.file(PHOTO, 'image/jpeg'));
	host.route('/to-internal', serve.redirect('http://files.example.test/secret.json'));
});
afterAll(async () => {
	restoreProxy();
	await host.close();
});
beforeEach(() => host.reset());

const fromUrl = (fileUrl: string, options: object = {}) =>
	uploadParameters({ source: 'url', fileUrl, options: { fileTypes: 'any', ...options } });

const INTERNAL = `"files.example.test" is a name that resolves to 127.0.0.1, an address n8n's egress filter restricts`;

describe("the URL source asks n8n's egress filter, which resolves host names", () => {
	it('a name that resolves to 127.0.0.1 is refused before any request, even with File Types "Any File"', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.test/secret.json'),
		});
		expect(nodeError?.message).toBe(
			`The File URL points into an internal network at http://files.example.test/secret.json: ${INTERNAL}`,
		);
		expect(nodeError?.description).toContain('Allow Internal Addresses');
		expect(host.requests).toEqual([]);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a redirect hop to such a name is refused too', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/to-internal'),
		});
		expect(nodeError?.message).toBe(
			`The File URL (after 1 redirect) points into an internal network at http://files.example.test/secret.json: ${INTERNAL}`,
		);
		expect(host.requests.map((r) => `${r.host}${r.path}`)).toEqual([
			'files.example.com/to-internal',
		]);
		expect(emu.uploads).toHaveLength(0);
	});

	it('control: a name that resolves to a public address is fetched and uploaded', async () => {
		const { items, nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/photo.jpg'),
		});
		expect(nodeError?.message).toBeUndefined();
		expect(items[0].json).toMatchObject({ outcome: 'uploaded', fileName: 'photo.jpg' });
		expect(emu.uploads).toHaveLength(1);
	});

	it('with Allow Internal Addresses on, the name is fetched (a local set-up the user trusts)', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.test/photo.jpg', { allowInternalAddresses: true }),
		});
		expect(items[0].json).toMatchObject({ outcome: 'uploaded' });
		expect(host.requests.map((r) => r.host)).toEqual(['files.example.test']);
	});
});

/**
 * DNS rebinding (issue 39): the filter resolved a name once and the request resolved it again, so a
 * name answering a public address first and 127.0.0.1 after reached inside. Here, without a proxy,
 * a request that connects by name gets 127.0.0.1 (connectNames) and would reach the server inside;
 * a connection to the public address the filter answered goes to the file host (routeAddresses),
 * which stands for that public server.
 */
describe('DNS rebinding: the address checked is the address connected to', () => {
	const INSIDE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x77)]);
	let insideHits = 0;
	const inside = createServer((_req, res) => {
		insideHits++;
		res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(INSIDE);
	});
	let undoNames: () => void;
	let network: ReturnType<typeof routeAddresses>;
	beforeAll(async () => {
		await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
		restoreProxy(); // connections of their own, as in n8n's default set-up
		undoNames = connectNames({
			'rebind.example.com': '127.0.0.1',
			'nxdomain.example.com': '127.0.0.1',
		});
		network = routeAddresses({ '93.184.215.14': Number(new URL(host.url).port) });
	});
	afterAll(async () => {
		network.undo();
		undoNames();
		restoreProxy = proxyThrough(host);
		inside.closeAllConnections();
		await new Promise((resolve) => inside.close(resolve));
	});
	beforeEach(() => {
		insideHits = 0;
		network.connects.length = 0;
	});
	const port = () => (inside.address() as AddressInfo).port;

	it('three items from a rebinding name: each connects to the checked public address, none inside', async () => {
		const { items, nodeError } = await runEventPics({
			emu,
			parameters: fromUrl(`http://rebind.example.com:${port()}/photo.jpg`),
			inputItems: [{ json: {} }, { json: {} }, { json: {} }],
		});
		expect(nodeError?.message).toBeUndefined();
		expect(items.map((item) => item.json.outcome)).toEqual(['uploaded', 'uploaded', 'uploaded']);
		expect(insideHits).toBe(0);
		expect(network.connects).toEqual(Array(3).fill(`93.184.215.14:${port()}`));
		// the name went along as Host
		expect(host.requests.map((r) => r.host)).toEqual(Array(3).fill(`rebind.example.com:${port()}`));
		expect(emu.uploads.map((upload) => upload.size)).toEqual(Array(3).fill(PHOTO.length));
	});

	it('a name the filter cannot resolve is refused, not let through to connect by itself', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl(`http://nxdomain.example.com:${port()}/photo.jpg`),
		});
		expect(nodeError?.message).toMatch(
			/^The File URL points into an internal network at http:\/\/nxdomain\.example\.com:\d+\/photo\.jpg: "nxdomain\.example\.com:\d+" is a name this machine cannot resolve( \([A-Z_]+\))?, so its address cannot be checked$/,
		);
		expect(insideHits).toBe(0);
		expect(host.requests).toEqual([]);
		expect(emu.uploads).toHaveLength(0);
	});
});
