import type { Emulator } from '../node/fixture.cts';
import { runEventPics, startEmulator, uploadParameters } from '../node/fixture.cts';
import type { FileHost } from '../node/fileHost.cts';
import { proxyThrough, serve, startFileHost } from '../node/fileHost.cts';
import { resolveNames } from '../node/names.cts';

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

let emu: Emulator;
let host: FileHost;
let restoreProxy: () => void;

beforeAll(async () => {
	Container.get(SsrfProtectionConfig).enabled = false;
	resolveNames({ 'files.example.test': '127.0.0.1', 'files.example.com': '93.184.215.14' });
	emu = await startEmulator();
	host = await startFileHost();
	restoreProxy = proxyThrough(host);
	host.route('/secret.json', serve.file(SECRET, 'application/json'));
	host.route('/photo.jpg', serve.file(PHOTO, 'image/jpeg'));
	host.route('/to-internal', serve.redirect('http://files.example.test/secret.json'));
});
afterAll(async () => {
	restoreProxy();
	await emu.close();
	await host.close();
});
beforeEach(() => {
	emu.reset();
	host.reset();
});

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
