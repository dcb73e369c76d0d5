import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	binaryFromBuffer,
	fileItem,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';
import { serve, useFileHost } from './fileHost.cts';

const sample = (name: string) =>
	readFileSync(join(__dirname, '..', '..', 'fixtures', 'samples', name));
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const MP4 = Buffer.concat([
	Buffer.from([0, 0, 0, 24]),
	Buffer.from('ftypisom'),
	Buffer.from([0, 0, 2, 0]),
	Buffer.from('isommp41'),
	Buffer.from([0, 0, 0, 8]),
	Buffer.from('moov'),
	Buffer.from([0, 0, 0x07, 0xd8]),
	Buffer.from('mdat'),
	randomBytes(2000),
]);

describe('Photo > Upload: types from content when the name has none', () => {
	const emu = useEmulator();
	const host = useFileHost();

	// n8n's Read/Write Files from Disk gives a file without an extension the MIME type text/plain
	const readWriteFiles = (bytes: Buffer, fileName: string) => [
		{ json: {}, binary: { data: binaryFromBuffer(bytes, { fileName, mimeType: 'text/plain' }) } },
	];

	it.each([
		['JPEG', 'booth-0001.jpg', 'IMG_0001', 'IMG_0001.jpg', 'image/jpeg'],
		['HEIF (heic)', 'first-dance.heic', 'IMG_0002', 'IMG_0002.heic', 'image/heic'],
		['PNG', 'confetti.png', 'confetti', 'confetti.png', 'image/png'],
	])(
		'a %s without extension, as Read/Write Files gives it (text/plain), goes up named and typed from its bytes',
		async (label, file, name, fileName, contentType) => {
			const bytes = sample(file);
			const { items } = await runEventPics({
				emu,
				parameters: uploadParameters(),
				inputItems: readWriteFiles(bytes, name),
			});
			expect(items[0].json).toMatchObject({
				fileName,
				contentType,
				typeFromContent: label,
				statusCode: 200,
			});
			expect(items[0].json.warnings).toEqual([
				`Type identified from content: ${label}. "${name}" has no extension and its MIME type (text/plain) says nothing, so it is sent as "${fileName}" (${contentType}).`,
			]);
			expect(emu.uploads[0]).toMatchObject({ fileName, contentType, sha256: sha256(bytes) });
		},
	);

	it('a video without extension and with application/octet-stream goes up as video/mp4', async () => {
		const input = [fileItem('clip', MP4, 'application/octet-stream')];
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: input,
		});
		expect(items[0].json).toMatchObject({
			fileName: 'clip.mp4',
			contentType: 'video/mp4',
			typeFromContent: 'MP4 (isom)',
		});
		expect(emu.uploads[0].contentType).toBe('video/mp4');
	});

	it('a file without extension whose bytes are no known photo or video is refused, not sent as text/plain', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: readWriteFiles(randomBytes(500), 'IMG_0003'),
		});
		expect(nodeError?.message).toBe(
			'The file from binary field "data" is refused: "IMG_0003.txt" would be sent as text/plain, which is neither a photo nor a video',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a MIME type that says something is kept (no look at the bytes for the name)', async () => {
		const input = [fileItem('IMG_0004', sample('booth-0001.jpg'), 'image/png')];
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: input,
		});
		expect(items[0].json).toMatchObject({ fileName: 'IMG_0004.png', contentType: 'image/png' });
		expect(items[0].json.typeFromContent).toBeNull();
		expect(items[0].json.warnings).toEqual([
			expect.stringContaining('its bytes are JPEG (image/jpeg)'),
		]);
	});

	it('a URL without extension answered as application/octet-stream is typed from its bytes', async () => {
		const bytes = sample('booth-0001.jpg');
		host.route('/download', serve.file(bytes, 'application/octet-stream'));
		const { items } = await runEventPics({
			emu,
			parameters: uploadParameters({
				source: 'url',
				fileUrl: `${host.url}/download?id=7`,
				options: { allowInternalAddresses: true },
			}),
		});
		expect(items[0].json).toMatchObject({
			fileName: 'download.jpg',
			contentType: 'image/jpeg',
			typeFromContent: 'JPEG',
		});
		expect(emu.uploads[0].sha256).toBe(sha256(bytes));
		expect(host.gets('/download')).toBe(1);
	});

	it('media types: a PDF is refused by default and uploaded with File Types "Any File"', async () => {
		const pdf = [
			fileItem('menu.pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj'), 'application/pdf'),
		];
		const refused = await runEventPics({ emu, parameters: uploadParameters(), inputItems: pdf });
		expect(refused.nodeError?.message).toBe(
			'The file from binary field "data" is refused: "menu.pdf" would be sent as application/pdf, which is neither a photo nor a video',
		);
		const allowed = await runEventPics({
			emu,
			parameters: uploadParameters({ options: { fileTypes: 'any' } }),
			inputItems: pdf,
		});
		expect(allowed.items[0].json).toMatchObject({
			fileName: 'menu.pdf',
			contentType: 'application/pdf',
			statusCode: 200,
		});
	});
});
