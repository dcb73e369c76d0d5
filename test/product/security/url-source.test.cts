import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { runEventPics, uploadParameters, useEmulator } from '../node/fixture.cts';
import { serve, useFileHost } from '../node/fileHost.cts';
import { resolveNames } from '../node/names.cts';

/**
 * Threats to the URL source (issue 9, items 2, 3, 5 and 6): server-side request forgery into this
 * machine, its network and cloud metadata, directly and through redirects; unbounded downloads;
 * error and login pages uploaded as photos; misleading errors.
 *
 * No traffic leaves 127.0.0.1: the loopback file host also answers as the HTTP proxy of every
 * address other than 127.0.0.1 (HTTP_PROXY below), so that a public-looking address such as
 * http://files.example.com/ reaches it without DNS, and so that an internal address the node failed
 * to refuse would still only reach the file host, where the test sees it.
 */

const ALLOW_INTERNAL =
	'turn on Options > "Allow Internal Addresses" (only for local set-ups you trust)';
const INTERNAL_DESCRIPTION = `The node refuses internal addresses, so that a workflow or an AI agent cannot fetch files from this machine or its network. Use a public address, or ${ALLOW_INTERNAL}.`;

const SECRET = Buffer.from('{"AccessKeyId":"ASIA-TEST","SecretAccessKey":"do-not-upload"}');
const PHOTO = Buffer.concat([
	Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
	Buffer.from('JFIF'),
	Buffer.alloc(4000, 0x55),
]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require('@n8n/di');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SsrfProtectionConfig } = require('@n8n/config');

const emu = useEmulator();
const host = useFileHost({ proxy: true });

beforeAll(async () => {
	// public names of the test world: the egress filter resolves them, the request goes to the proxy
	resolveNames({ 'files.example.com': '93.184.215.14', 'cdn.example.net': '93.184.215.15' });
	// n8n's own SSRF protection, off as by default; read when its service is first built (first request)
	const ssrf = Container.get(SsrfProtectionConfig);
	ssrf.enabled = false;
	ssrf.allowedIpRanges = ['127.0.0.1/32'];
	host.route('/secret.json', serve.file(SECRET, 'application/json'));
	host.route('/photo.jpg', serve.file(PHOTO, 'image/jpeg'));
});

const fromUrl = (fileUrl: string, options: object = {}) =>
	uploadParameters({ source: 'url', fileUrl, options });
const apiCalls = () => emu.requests.filter((r) => r.url.startsWith('/getuploadurl'));

describe('SSRF: the URL source refuses internal addresses before any connection', () => {
	const port = () => new URL(host.url).port;

	it.each([
		['loopback', (p: string) => `http://127.0.0.1:${p}/secret.json`, 'a loopback address'],
		[
			'loopback, another address of 127/8',
			(p: string) => `http://127.0.0.2:${p}/secret.json`,
			'a loopback address',
		],
		[
			'localhost',
			(p: string) => `http://localhost:${p}/secret.json`,
			'a name of this machine (localhost)',
		],
		[
			'decimal 2130706433',
			(p: string) => `http://2130706433:${p}/secret.json`,
			'a loopback address',
		],
		['hex 0x7f.1', (p: string) => `http://0x7f.1:${p}/secret.json`, 'a loopback address'],
		['octal 0177.0.0.1', (p: string) => `http://0177.0.0.1:${p}/secret.json`, 'a loopback address'],
		['short 127.1', (p: string) => `http://127.1:${p}/secret.json`, 'a loopback address'],
		['IPv6 loopback', (p: string) => `http://[::1]:${p}/secret.json`, 'a loopback address'],
		[
			'IPv4-mapped IPv6',
			(p: string) => `http://[::ffff:127.0.0.1]:${p}/secret.json`,
			'a loopback address (127.0.0.1) in IPv6 form',
		],
	])('%s: refused, the file host sees no request', async (_name, url, what) => {
		const address = url(port());
		const { nodeError } = await runEventPics({ emu, parameters: fromUrl(address) });
		const shown = new URL(address).host;
		expect(nodeError?.message).toBe(
			`The File URL points into an internal network at ${new URL(address).href}: "${shown}" is ${what}`,
		);
		expect(nodeError?.description).toBe(INTERNAL_DESCRIPTION);
		expect(host.requests).toEqual([]);
		expect(apiCalls()).toHaveLength(0);
	});

	it.each([
		[
			'cloud metadata 169.254.169.254',
			'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
		],
		['cloud metadata, decimal', 'http://2852039166/latest/meta-data/'],
		['cloud metadata by name', 'http://metadata.google.internal/computeMetadata/v1/'],
		['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
		['private 10/8', 'http://10.0.0.5/admin'],
		['private 172.16/12', 'http://172.20.1.1/'],
		['private 192.168/16', 'http://192.168.1.1/router.cfg'],
		['CGNAT 100.64/10', 'http://100.100.100.200/latest/meta-data/'],
		['unspecified 0.0.0.0', 'http://0.0.0.0:8080/'],
		['IPv6 link-local', 'http://[fe80::1]/'],
		['IPv6 unique-local', 'http://[fd00::10]/'],
		['IPv6 unspecified', 'http://[::]/'],
		['broadcast', 'http://255.255.255.255/'],
		['multicast', 'http://224.0.0.251/'],
		['a subdomain of localhost', 'http://api.localhost/'],
		['a name without a dot', 'http://intranet/wiki'],
	])('%s: refused, nothing sent anywhere', async (_name, address) => {
		const { nodeError } = await runEventPics({ emu, parameters: fromUrl(address) });
		expect(nodeError?.message).toMatch(
			/^The File URL points into an internal network at http:\/\/\S+: ".+" is .+$/,
		);
		expect(nodeError?.description).toBe(INTERNAL_DESCRIPTION);
		expect(host.requests).toEqual([]);
		expect(emu.uploads).toHaveLength(0);
	});

	it('"Allow Internal Addresses" lets a local set-up download from 127.0.0.1', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl(`${host.url}/photo.jpg`, { allowInternalAddresses: true }),
		});
		expect(items[0].json).toMatchObject({ fileName: 'photo.jpg', statusCode: 200 });
		expect(emu.uploads[0].sha256).toBe(sha256(PHOTO));
	});
});

describe('SSRF through redirects: every hop is checked', () => {
	it.each([
		['to loopback', () => `${host.url}/secret.json`, /^"127\.0\.0\.1:\d+" is a loopback address$/],
		[
			'to cloud metadata',
			() => 'http://169.254.169.254/latest/meta-data/',
			/^"169\.254\.169\.254" is a link-local address/,
		],
		[
			'to metadata by name',
			() => 'http://metadata.google.internal/computeMetadata/v1/',
			/^"metadata\.google\.internal" is a name/,
		],
		[
			'to IPv4-mapped loopback',
			() => 'http://[::ffff:7f00:1]/',
			/^"\[::ffff:7f00:1\]" is a loopback address/,
		],
		['to decimal loopback', () => 'http://2130706433/', /^"127\.0\.0\.1" is a loopback address$/],
	])('a public address redirecting %s is refused at that hop', async (_name, target, what) => {
		host.route('/r/go', serve.redirect(target(), 302));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/r/go'),
		});
		const prefix = 'The File URL (after 1 redirect) points into an internal network at ';
		expect(nodeError?.message.startsWith(prefix)).toBe(true);
		expect(nodeError?.message.slice(prefix.length).replace(/^\S+: /, '')).toMatch(what);
		expect(host.requests.map((r) => `${r.host}${r.path}`)).toEqual(['files.example.com/r/go']);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a chain of public hops ending inside is refused at the last hop (307 and 308 too)', async () => {
		host.route('/a', serve.redirect('http://cdn.example.net/b', 307));
		host.route('/b', serve.redirect('http://10.1.2.3/c', 308));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/a'),
		});
		expect(nodeError?.message).toBe(
			'The File URL (after 2 redirects) points into an internal network at http://10.1.2.3/c: "10.1.2.3" is a private address',
		);
		expect(host.requests.map((r) => r.host)).toEqual(['files.example.com', 'cdn.example.net']);
	});

	it('a redirect to a non-http address is refused', async () => {
		host.route('/to-file', serve.redirect('file:///etc/passwd', 301));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/to-file'),
		});
		expect(nodeError?.message).toBe(
			'The File URL (after 1 redirect) is not an http(s) address: file:///etc/passwd',
		);
	});

	it('a redirect loop ends after 10 redirects', async () => {
		host.route('/loop', serve.redirect('/loop', 302));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/loop'),
		});
		expect(nodeError?.message).toBe(
			'The File URL redirects more than 10 times: http://files.example.com/loop',
		);
		expect(host.gets('/loop')).toBe(11);
	});

	it('public redirects are followed; the file is fetched once', async () => {
		host.route('/share/x', serve.redirect('http://cdn.example.net/photo.jpg', 303));
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/share/x'),
		});
		expect(items[0].json).toMatchObject({
			url: 'http://files.example.com/share/x',
			fileName: 'x.jpg',
			contentType: 'image/jpeg',
		});
		expect(host.gets('/photo.jpg')).toBe(1);
		expect(emu.uploads[0].sha256).toBe(sha256(PHOTO));
	});
});

describe("n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED)", () => {
	it('a URL it blocks is reported as blocked by it, not as a bare NETWORK_ERROR', async () => {
		const ssrf = Container.get(SsrfProtectionConfig);
		ssrf.enabled = true;
		try {
			const address = `http://127.0.0.2:${new URL(host.url).port}/photo.jpg`;
			const { nodeError } = await runEventPics({
				emu,
				parameters: fromUrl(address, { allowInternalAddresses: true }),
			});
			expect(nodeError?.message).toBe(
				`n8n's SSRF protection blocked the download of ${address}: The target 127.0.0.2 is not allowed. This is a security measure to prevent Server-Side Request Forgery (SSRF). If you need to access internal resources, ask your n8n administrator to allowlist the hostname or IP range in the environment configuration.`,
			);
			expect(nodeError?.description).toBe(
				'If this address is meant to be reached (a local set-up), allow it in N8N_SSRF_ALLOWED_IP_RANGES or N8N_SSRF_ALLOWED_HOSTNAMES.',
			);
			expect(host.requests).toEqual([]);
		} finally {
			ssrf.enabled = false;
		}
	});
});

describe('Unbounded downloads: Max File Size', () => {
	it('a 10 GB Content-Length is refused before the body is read (default 1024 MB)', async () => {
		host.route('/huge.mp4', serve.announces(10 * 1024 ** 3));
		const started = Date.now();
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/huge.mp4'),
		});
		expect(nodeError?.message).toBe(
			'The file of the File URL is larger than Max File Size (1024 MiB): http://files.example.com/huge.mp4 announces 10240 MiB (Content-Length)',
		);
		expect(nodeError?.description).toBe(
			'Raise Options > "Max File Size (MiB)" if this file is meant to be uploaded.',
		);
		expect(Date.now() - started).toBeLessThan(20_000);
		expect(apiCalls()).toHaveLength(0);
	});

	it('an endless answer without Content-Length is stopped soon after the limit', async () => {
		host.route('/endless.jpg', serve.endless('image/jpeg'));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/endless.jpg', { maxFileSizeMb: 2 }),
		});
		expect(nodeError?.message).toMatch(
			/^The file of the File URL is larger than Max File Size \(2 MiB\): http:\/\/files\.example\.com\/endless\.jpg sent more; stopped after 2(\.\d)? MiB$/,
		);
		expect(host.endlessBytesSent()).toBeLessThan(16 * 1024 * 1024);
		expect(apiCalls()).toHaveLength(0);
	});
});

describe('a File URL as errors show it (issue 39)', () => {
	it.each([
		['not an address, with a password', 'http://agent:S3cretPassw0rd@exa mple.com/x.jpg'],
		['an address with a password', 'http://agent:S3cretPassw0rd@127.0.0.1:9/x.jpg'],
	])('%s: the password is not shown', async (_what, fileUrl) => {
		const result = await runEventPics({ emu, parameters: fromUrl(fileUrl) });
		expect(result.nodeError?.message).toMatch(/^The File URL /);
		// what the node says (the node's parameters in the error are the user's own)
		const said = JSON.stringify([result.nodeError?.message, result.nodeError?.description]);
		expect(said).not.toContain('S3cretPassw0rd');
	});

	it('10 MB that are not an address give a message of at most 2,000 characters', async () => {
		const fileUrl = `http://${'a'.repeat(10 * 1024 * 1024)} b`;
		const result = await runEventPics({ emu, parameters: fromUrl(fileUrl) });
		expect(result.nodeError?.message).toMatch(
			/^The File URL is not an address: "http:\/\/a+… \(\d+ more characters not shown\)"$/,
		);
		expect(result.nodeError!.message.length).toBeLessThan(2000);
		expect(String(result.nodeError?.description).length).toBeLessThan(2000);
	});
});

describe('Misleading errors of a failing file URL', () => {
	it.each([
		['with Content-Length', serve.drop(PHOTO.subarray(0, 1000), 50_000)],
		['without Content-Length', serve.dropChunked(PHOTO.subarray(0, 1000))],
	])(
		'a dropped download (%s) says so, names the file URL and not the Base URL',
		async (_name, handler) => {
			host.route('/dropped.jpg', handler);
			const { nodeError } = await runEventPics({
				emu,
				parameters: fromUrl('http://files.example.com/dropped.jpg'),
			});
			expect(nodeError?.message).toMatch(
				/^The download of the File URL broke off after 1000 bytes( of 48\.8 KiB)?: http:\/\/files\.example\.com\/dropped\.jpg$/,
			);
			expect(nodeError?.description).toMatch(
				/^The server of the File URL stopped sending the file\. Run the workflow again; if it persists, check that server\.( \(GET of the File URL: network error code [A-Z_]+\.\))?$/,
			);
			expect(nodeError?.description).not.toMatch(/Base URL|credential/);
			expect(apiCalls()).toHaveLength(0);
		},
	);

	it('a server that does not answer: the error is about the file URL, not the credential', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://127.0.0.1:9/photo.jpg', { allowInternalAddresses: true }),
		});
		expect(nodeError?.message).toBe(
			'The server of the File URL did not answer the download: the server refused the connection (nothing listens there): http://127.0.0.1:9/photo.jpg',
		);
		expect(nodeError?.description).toBe(
			'Check that the File URL is right and that its server is reachable from the machine n8n runs on. (GET of the File URL: network error code ECONNREFUSED.)',
		);
	});
});

describe('Secrets in the File URL', () => {
	it('a user name and password in the File URL are not echoed in errors or output', async () => {
		const withPassword = (path: string) =>
			`${host.url.replace('http://', 'http://agent:s3cr3t-pass@')}${path}`;
		const failed = await runEventPics({
			emu,
			parameters: fromUrl(withPassword('/missing.jpg'), { allowInternalAddresses: true }),
		});
		expect(failed.nodeError?.message).toBe(
			`The server of the File URL answered the download with 404: ${host.url}/missing.jpg`,
		);
		const { items } = await runEventPics({
			emu,
			parameters: fromUrl(withPassword('/photo.jpg'), { allowInternalAddresses: true }),
		});
		expect(items[0].json.url).toBe(`${host.url}/photo.jpg`);
		const shown = [
			JSON.stringify(items.map((item) => item.json)),
			failed.nodeError?.message,
			failed.nodeError?.description,
		];
		expect(shown.join('\n')).not.toContain('s3cr3t-pass');
	});
});

describe('Contents: error pages, login pages and secrets are not uploaded as photos', () => {
	const LOGIN =
		'<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form>...</form></body></html>';

	it('an HTML login page fetched as photo.jpg is refused, not uploaded as image/jpeg', async () => {
		host.route('/album/photo.jpg', serve.html(LOGIN));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/album/photo.jpg'),
		});
		expect(nodeError?.message).toBe(
			'The file from the File URL "http://files.example.com/album/photo.jpg" is refused: "photo.jpg" would be sent as image/jpeg, but its content is HTML, not a photo or video',
		);
		expect(nodeError?.description).toBe(
			'This is usually an error or login page instead of the file. Check the address or binary field; to upload the file anyway, set Options > "File Types" to "Any File".',
		);
		expect(apiCalls()).toHaveLength(0);
	});

	it('a secret fetched as role.txt is refused as not a photo or video', async () => {
		host.route('/role.txt', serve.file(SECRET, 'text/plain'));
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/role.txt'),
		});
		expect(nodeError?.message).toBe(
			'The file from the File URL "http://files.example.com/role.txt" is refused: "role.txt" would be sent as text/plain, which is neither a photo nor a video',
		);
		expect(nodeError?.description).toBe(
			'An event album holds photos and videos. Give the file its right extension in Options > "File Name", or set Options > "File Types" to "Any File" to upload it anyway.',
		);
		expect(emu.uploads).toHaveLength(0);
	});
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { initEngine } = require('../../tools/engine/engine');

/** Bytes in n8n's binary store (filesystem mode, the harness's folder). */
async function storedBytes(): Promise<number> {
	const { binaryStoragePath } = await initEngine();
	const walk = (dir: string): number =>
		readdirSync(dir, { withFileTypes: true }).reduce(
			(sum, entry) =>
				sum +
				(entry.isDirectory() ? walk(join(dir, entry.name)) : statSync(join(dir, entry.name)).size),
			0,
		);
	return walk(binaryStoragePath);
}

describe("a refused download leaves nothing in n8n's binary store", () => {
	const MiB = 1024 * 1024;

	it('a compressed answer counts its unpacked bytes against Max File Size (300 KB of gzip, 300 MiB unpacked)', async () => {
		const photo = Buffer.alloc(300 * MiB, 0xab);
		photo.set([0xff, 0xd8, 0xff, 0xe0]);
		const packed = gzipSync(photo);
		host.route('/bomb.jpg', (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Encoding': 'gzip' });
			res.end(packed);
		});
		const before = await storedBytes();
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/bomb.jpg', { maxFileSizeMb: 10 }),
		});
		expect(packed.length).toBeLessThan(400_000);
		expect(nodeError?.message).toMatch(
			/^The file of the File URL is larger than Max File Size \(10 MiB\): http:\/\/files\.example\.com\/bomb\.jpg sent more; stopped after 10(\.\d)? MiB$/,
		);
		expect((await storedBytes()) - before).toBeLessThan(MiB);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a compressed page (300 KB of gzip, 300 MiB unpacked) under Max File Size is refused from its first bytes, not stored', async () => {
		const packed = gzipSync(Buffer.alloc(300 * MiB, 'error page '));
		host.route('/bomb-page.jpg', (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Encoding': 'gzip' });
			res.end(packed);
		});
		const before = await storedBytes();
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/bomb-page.jpg'),
		});
		expect(nodeError?.message).toBe(
			'The file from the File URL "http://files.example.com/bomb-page.jpg" is refused: "bomb-page.jpg" would be sent as image/jpeg, but its content is text, not a photo or video',
		);
		expect((await storedBytes()) - before).toBeLessThan(MiB);
	});

	it('a file refused for its content (100 MiB of text named .jpg) is refused from its first bytes, not stored', async () => {
		const text = Buffer.alloc(100 * MiB, 'not a photo, ');
		host.route('/text.jpg', serve.file(text, 'image/jpeg'));
		const before = await storedBytes();
		const { nodeError } = await runEventPics({
			emu,
			parameters: fromUrl('http://files.example.com/text.jpg'),
		});
		expect(nodeError?.message).toBe(
			'The file from the File URL "http://files.example.com/text.jpg" is refused: "text.jpg" would be sent as image/jpeg, but its content is text, not a photo or video',
		);
		expect((await storedBytes()) - before).toBeLessThan(MiB);
		expect(emu.uploads).toHaveLength(0);
	});
});
