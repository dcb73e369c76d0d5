import type { Server } from 'node:https';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import type { RunResult } from '../node/fixture.cts';
import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from '../node/fixture.cts';
import { lookups, resolveNames } from '../node/names.cts';
import type { TlsFront } from '../node/tlsFront.cts';
import { STORAGE_ADDRESS, STORAGE_HOST, startTlsFront } from '../node/tlsFront.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require('@n8n/di');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SsrfProtectionConfig } = require('@n8n/config');

/**
 * Threat: the upload address getuploadurl answers was trusted blindly. Anything starting with
 * http(s):// got the user's file: loopback, 169.254.169.254, private ranges, plain http to any
 * host; a loopback server's "400 Internal: db_password=hunter2" came back in the node's error; with
 * n8n's SSRF protection on, the error said only NETWORK_ERROR.
 *
 * The URL source's address rules now apply to it, measured against the Base URL: plain http:// only
 * when the Base URL is plain http:// (loopback only), an internal address only when the Base URL is
 * internal or Allow Internal Addresses is on. A refused address gets no request at all; of what an
 * upload address answers, only the storage's S3-style error is shown. Here the Base URL is
 * https://api.eventpics.test, the emulator behind TLS (../node/tlsFront.ts).
 */
const PHOTO = () => ({
	binary: {
		data: binaryFromBuffer(mediaBytes(800), { fileName: 'p.jpg', mimeType: 'image/jpeg' }),
	},
});
const REFUSED = 'EventPics answered with an upload address the node does not send files to: ';
const SECRET_TEXT = 'Internal: db_password=hunter2';

const emu = useEmulator();
let front: TlsFront;
/** A server on 127.0.0.1 that answers every request with 400 and a secret. */
let leaky: Server;
let leakyHits = 0;
let leakyBody = SECRET_TEXT;

const ssrf = Container.get(SsrfProtectionConfig);

beforeAll(async () => {
	// n8n's own SSRF protection, off as by default; its ranges are read when its service is first
	// built (at the first request), so they are set before anything is sent
	ssrf.enabled = false;
	ssrf.allowedIpRanges = ['127.0.0.1/32'];
	// the test world's DNS, for n8n's egress filter (../node/names.cts)
	resolveNames({ 'photos.example.test': '10.9.8.7', [STORAGE_HOST]: STORAGE_ADDRESS });
	front = await startTlsFront(emu);
	leaky = createServer(front.serverOptions, (req, res) => {
		leakyHits++;
		req.resume();
		req.on('end', () => res.writeHead(400, { 'Content-Type': 'text/plain' }).end(leakyBody));
	});
	await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	leaky.closeAllConnections();
	await new Promise((resolve) => leaky.close(resolve));
	await front.close();
});
beforeEach(() => {
	front.uploadOrigin = 'https://storage.eventpics.test';
	leakyHits = 0;
	leakyBody = SECRET_TEXT;
});

const leakyUrl = () => `https://127.0.0.1:${(leaky.address() as AddressInfo).port}/upload?sig=1`;
const puts = () => emu.requests.filter((r) => r.server === 'storage');

async function upload(options: object = {}): Promise<RunResult> {
	return await runEventPics({
		emu,
		baseUrl: front.baseUrl,
		parameters: uploadParameters({ options }),
		inputItems: [PHOTO()],
	});
}

describe('security: the upload address follows the URL source rules, against the Base URL', () => {
	it('control: an https:// Base URL and an https:// storage address outside the network upload as before', async () => {
		const result = await upload();
		expect(result.items[0].json).toMatchObject({ statusCode: 200, attempts: 1 });
		expect(emu.uploads).toHaveLength(1);
		// the storage's name was checked, then its checked address connected to; TLS was verified
		// for the name (the certificate does not name the address)
		expect(new Set(front.tunnels)).toEqual(new Set(['api.eventpics.test', STORAGE_ADDRESS]));
	});

	it('plain http:// to a public host is refused when the Base URL is https://, before any request', async () => {
		front.uploadOrigin = 'http://storage.eventpics.test';
		const result = await upload();
		expect(result.nodeError?.message).toBe(
			`${REFUSED}"http://storage.eventpics.test" uses plain http://, so the file would travel unencrypted. Nothing was sent there`,
		);
		expect(result.nodeError?.description).toContain('An upload address must use https://');
		expect(puts()).toHaveLength(0);
	});

	it.each([
		[
			'cloud metadata',
			'https://169.254.169.254/latest/meta-data/',
			'"169.254.169.254" is a link-local address (cloud metadata lives at 169.254.169.254)',
		],
		['a private address', 'https://10.0.0.8/bucket/p.jpg?sig=1', '"10.0.0.8" is a private address'],
		[
			'loopback in IPv6 form',
			'https://[::ffff:127.0.0.1]/p.jpg',
			'"[::ffff:7f00:1]" is a loopback address (127.0.0.1) in IPv6 form',
		],
		[
			'an internal name',
			'https://metadata.google.internal/computeMetadata/v1/',
			'"metadata.google.internal" is a name of an internal network (*.internal, for example a cloud metadata service)',
		],
	])('%s is refused when the Base URL is public: %s', async (_what, address, reason) => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: address });
		const result = await upload();
		expect(result.nodeError?.message).toBe(
			`${REFUSED}"${new URL(address).origin}" points into an internal network: ${reason}. Nothing was sent there`,
		);
		expect(puts()).toHaveLength(0);
		expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(1);
	});

	it("a public-looking name that resolves to a private address is refused by n8n's egress filter, before any request", async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'noUploadUrl',
			value: 'https://photos.example.test/bucket/p.jpg?sig=1',
		});
		const result = await upload();
		expect(result.nodeError?.message).toBe(
			`${REFUSED}"https://photos.example.test" points into an internal network: "photos.example.test" is a name that resolves to 10.9.8.7, an address n8n's egress filter restricts. Nothing was sent there`,
		);
		expect(puts()).toHaveLength(0);
		expect(front.tunnels).not.toContain('photos.example.test');
	});

	it("n8n's egress filter is asked once for the storage of a run of 12 files, and every PUT goes to the address it checked", async () => {
		lookups.length = 0;
		front.tunnels.length = 0;
		const result = await runEventPics({
			emu,
			baseUrl: front.baseUrl,
			parameters: uploadParameters({ options: {} }),
			inputItems: Array.from({ length: 12 }, PHOTO),
		});
		expect(result.items.map((item) => item.json.outcome)).toEqual(Array(12).fill('uploaded'));
		expect(emu.uploads).toHaveLength(12);
		expect(lookups.filter((name) => name === 'storage.eventpics.test')).toHaveLength(1);
		// every PUT connects to the address checked, never by name (a rebinding name cannot lead inside)
		const storageTunnels = front.tunnels.filter((tunnel) => tunnel !== 'api.eventpics.test');
		expect(storageTunnels.length).toBeGreaterThan(0);
		expect(new Set(storageTunnels)).toEqual(new Set([STORAGE_ADDRESS]));
	});

	it('a loopback server is refused without a request, so nothing it would say reaches the error', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: leakyUrl() });
		const result = await upload();
		expect(result.nodeError?.message).toContain('points into an internal network');
		expect(leakyHits).toBe(0);
		expect(result.text()).not.toContain('hunter2');
	});

	it('with Allow Internal Addresses, an internal storage address is used', async () => {
		front.uploadOrigin = `https://127.0.0.1:${front.storagePort}`;
		const result = await upload({ allowInternalAddresses: true });
		expect(result.items[0].json).toMatchObject({ statusCode: 200 });
		expect(emu.uploads).toHaveLength(1);
	});

	it.each([
		['plain text', SECRET_TEXT],
		['JSON', JSON.stringify({ code: 'Internal', message: SECRET_TEXT })],
		['HTML', `<html><body>${SECRET_TEXT}</body></html>`],
	])(
		'what an allowed target answers as %s is not shown: only a storage error (S3 XML) is',
		async (_what, body) => {
			leakyBody = body;
			emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: leakyUrl() });
			const result = await upload({ allowInternalAddresses: true, maxAttempts: 1 });
			expect(leakyHits).toBe(1);
			expect(result.nodeError?.message).toBe('The storage refused the upload (400)');
			expect(result.text()).not.toContain('hunter2');
		},
	);

	it('a storage error in S3 XML is still shown', async () => {
		leakyBody = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: leakyUrl() });
		const result = await upload({ allowInternalAddresses: true, maxAttempts: 1 });
		expect(result.nodeError?.message).toBe(
			'The storage refused the upload (400): AccessDenied: Request has expired',
		);
	});
});

describe('security: a local http:// Base URL keeps its local storage (the emulator set-up)', () => {
	it('a loopback Base URL may send to loopback and plain http storage, as every other test does', async () => {
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [PHOTO()],
		});
		expect(result.items[0].json).toMatchObject({ statusCode: 200 });
		expect(new URL(emu.storageUrl).protocol).toBe('http:');
	});
});

describe("security: n8n's SSRF protection blocking the upload address is named", () => {
	beforeAll(() => (ssrf.enabled = true));
	afterAll(() => (ssrf.enabled = false));

	it('the PUT to 127.0.0.2 is blocked by n8n, and the error says so instead of NETWORK_ERROR', async () => {
		const address = `${emu.storageUrl.replace('127.0.0.1', '127.0.0.2')}/eventpics-uploads/x?sig=1`;
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', value: address });
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [PHOTO()],
		});
		expect(result.nodeError?.message).toMatch(
			/^n8n's SSRF protection blocked the upload: The target 127\.0\.0\.2 is not allowed\./,
		);
		expect(result.nodeError?.message).not.toContain('NETWORK_ERROR');
		expect(result.nodeError?.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect(puts()).toHaveLength(0);
	});
});
