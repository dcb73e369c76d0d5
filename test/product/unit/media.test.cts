import {
	decideType,
	extensionOf,
	isGenericMediaType,
	sniff,
	sniffText,
} from '../../../nodes/EventPics/helpers/media';
import { FIXTURE_IMAGES } from '../exif/corpus.cts';

const bytes = (...parts: Array<number[] | string>) =>
	Buffer.concat(
		parts.map((part) =>
			typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
		),
	);
const strict = { allowUnknown: false, allowOther: false };
const unknownToo = { allowUnknown: true, allowOther: false };
const anyFile = { allowUnknown: false, allowOther: true };

const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF\0');
const PNG = bytes([0x89], 'PNG\r\n\x1a\n');
const HTML = bytes('<!doctype html><html><head><title>Please sign in</title>');
const RANDOM = bytes([0x13, 0x9a, 0x00, 0x44, 0xfe, 0x01, 0x02, 0x03, 0x80, 0x81]);
const ftyp = (brand: string) => bytes([0, 0, 0, 24], `ftyp${brand}`);
// headers as the formats write them (then the image data)
const PSD = bytes('8BPS', [0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 16, 0, 0, 0, 16, 0, 8, 0, 3]);
const ICO = bytes([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 4, 0, 0, 22, 0, 0, 0]);
const DNG = bytes('II*\0', [8, 0, 0, 0, 0x10, 0, 0xfe, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
const ASF = bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0, 0xaa, 0, 0x62]);

describe('sniff: what the first bytes are', () => {
	const EBML = [0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82];
	it.each([
		['JPEG', 'jpg', 'image/jpeg', JPEG],
		['PNG', 'png', 'image/png', PNG],
		['GIF', 'gif', 'image/gif', bytes('GIF87a')],
		['GIF', 'gif', 'image/gif', bytes('GIF89a')],
		['WebP', 'webp', 'image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBP')],
		['BMP', 'bmp', 'image/bmp', bytes('BM', new Array(12).fill(0))],
		['TIFF', 'tif', 'image/tiff', bytes('II*\0', [8, 0, 0, 0])],
		['TIFF', 'tif', 'image/tiff', bytes('MM\0*')],
		['TIFF', 'tif', 'image/x-adobe-dng', DNG],
		['Canon CR2', 'cr2', 'image/x-canon-cr2', bytes('II*\0', [16, 0, 0, 0], 'CR', [2, 0])],
		['Olympus ORF', 'orf', 'image/x-olympus-orf', bytes('IIRO', [8, 0, 0, 0])],
		['Panasonic RW2', 'rw2', 'image/x-panasonic-rw2', bytes('IIU\0', [8, 0, 0, 0])],
		['Fujifilm RAF', 'raf', 'image/x-fuji-raf', bytes('FUJIFILMCCD-RAW 0201')],
		['HEIF (heic)', 'heic', 'image/heic', ftyp('heic')],
		['HEIF (mif1)', 'heif', 'image/heif', ftyp('mif1')],
		['HEIF (hevc)', 'heics', 'image/heic-sequence', ftyp('hevc')],
		['AVIF', 'avif', 'image/avif', ftyp('avif')],
		['Canon CR3', 'cr3', 'image/x-canon-cr3', ftyp('crx ')],
		['MP4 (isom)', 'mp4', 'video/mp4', ftyp('isom')],
		['MP4 (M4V)', 'm4v', 'video/x-m4v', ftyp('M4V ')],
		['MP4 (3gp5)', '3gp', 'video/3gpp', ftyp('3gp5')],
		['QuickTime', 'mov', 'video/quicktime', ftyp('qt  ')],
		['QuickTime', 'mov', 'video/quicktime', bytes([0, 0, 0, 8], 'moov')],
		['AVI', 'avi', 'video/x-msvideo', bytes('RIFF', [0, 0, 0, 0], 'AVI ')],
		['WebM', 'webm', 'video/webm', bytes([...EBML, 0x84], 'webm')],
		['Matroska', 'mkv', 'video/x-matroska', bytes([...EBML, 0x88], 'matroska')],
		['MPEG', 'mpg', 'video/mpeg', bytes([0, 0, 1, 0xba, 0x44])],
		['Photoshop', 'psd', 'image/vnd.adobe.photoshop', PSD],
		['Windows icon', 'ico', 'image/vnd.microsoft.icon', ICO],
		['JPEG XL', 'jxl', 'image/jxl', bytes([0xff, 0x0a, 0xfa, 0x1f])],
		['JPEG XL', 'jxl', 'image/jxl', bytes([0, 0, 0, 0x0c], 'JXL \r\n', [0x87, 0x0a])],
		['ASF (WMV)', 'wmv', 'video/x-ms-wmv', ASF],
	])('%s: named .%s, sent as %s among others', (label, extension, type, data) => {
		const types = expect.arrayContaining([type]);
		expect(sniff(data)).toEqual({ label, types, extension, media: true });
	});

	it.each([
		['PDF', bytes('%PDF-1.7')],
		['a ZIP archive (or an Office document, a .jar or .apk)', bytes('PK\x03\x04')],
		['a gzip archive', bytes([0x1f, 0x8b, 8, 0])],
		['a Windows program', bytes('MZ', [0x90, 0])],
		['a program (ELF)', bytes('\x7fELF')],
		['a DER-encoded key or certificate', bytes([0x30, 0x82, 1, 0x22])],
		['an SQLite database', bytes('SQLite format 3\0')],
	])('knows %s, no photo or video', (label, data) => {
		expect(sniff(data)).toMatchObject({ label, media: false });
	});

	it('says nothing of unknown or too short data', () => {
		for (const data of [bytes('hello world'), new Uint8Array(0), bytes([0xff, 0xd8]), RANDOM])
			expect(sniff(data)).toBeUndefined();
	});
});

const REAL = FIXTURE_IMAGES.filter(({ bytes }) => bytes.length > 0);

describe('real photos', () => {
	it.each(REAL.map(({ name, bytes }) => [name, bytes] as const))(
		'%s: media, not text, taken by its own name without a warning',
		(name, data) => {
			expect(sniff(data)?.media).toBe(true);
			expect(sniffText(data)).toBeUndefined();
			const decided = decideType(name, undefined, data, unknownToo);
			expect(decided).toMatchObject({ ok: true, fileName: name, warnings: [] });
		},
	);

	it('the samples are photos of several formats', () => {
		expect(REAL.length).toBeGreaterThan(30);
		expect(new Set(REAL.map(({ bytes }) => sniff(bytes)?.label)).size).toBeGreaterThanOrEqual(8);
	});
});

describe('sniffText: text sent as a photo', () => {
	const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
	it.each([
		['HTML', 'HTML', Buffer.from('<!DOCTYPE html><html><head><title>Sign in</title>')],
		['HTML after a BOM and spaces', 'HTML', Buffer.from('\uFEFF  \n<html lang="en"><body>Log in')],
		['XML', 'XML or markup', Buffer.from('<?xml version="1.0"?><Error><Code>AccessDenied')],
		['JSON', 'JSON', Buffer.from('{"error":"not found","status":404}')],
		['English', 'text', Buffer.from('Access denied. Please log in first.')],
		['German in UTF-8', 'text', Buffer.from('Grüße aus der Fotobox, leider kein Bild')],
		[
			'Latin-1 HTML',
			'HTML',
			Buffer.from(
				'<html lang="de"><title>Anmeldung</title><p>Grüße von der Fotobox</p></html>',
				'latin1',
			),
		],
		['UTF-8 HTML with one 0xA0 byte', 'HTML', bytes('<html><body>Hello', [0xa0], 'world</body>')],
		[
			'CJK UTF-16LE HTML',
			'HTML',
			Buffer.from(
				'<html lang="ja"><head><title>写真のアルバム</title></head><body>ようこそ',
				'utf16le',
			),
		],
		['UTF-16BE HTML with a BOM', 'HTML', utf16be('\uFEFF<html><body>sign in')],
		// a BOM says UTF-16 even where few bytes are zero (Japanese text)
		[
			'CJK UTF-16LE text with a BOM',
			'text',
			Buffer.concat([
				Buffer.from([0xff, 0xfe]),
				Buffer.from(
					'写真のアルバムへようこそ。ログインしてください。写真のアルバムへようこそ。',
					'utf16le',
				),
			]),
		],
		[
			'coloured terminal text (ESC)',
			'text',
			bytes([0x1b], '[31mERROR[0m upload failed: token expired'),
		],
		// a few NULs, stray high bytes or a broken UTF-8 sequence do not hide text
		[
			'secrets with NULs',
			'text',
			bytes(
				'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY',
				[0],
				'DB_PASSWORD=hunter2',
				[0],
			),
		],
		[
			'a PEM private key with one 0xFF byte',
			'text',
			bytes(
				'-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
				[0xff],
				'BKcwggSjAgEAAoIBAQC7\n',
			),
		],
		// (the markup is not at the start, so it is called text, not HTML)
		[
			'HTML after two 0x85 bytes',
			'text',
			bytes([0x85, 0x85], '<html><head><title>Sign in</title></head>'),
		],
		['one NUL', 'text', bytes('abc', [0], 'def ghi jkl')],
		['a broken UTF-8 sequence', 'text', bytes([0xc3, 0x28], 'invalid utf-8 here')],
	])('%s is %s', (_, label, data) => {
		expect(sniffText(data)).toBe(label);
	});

	it.each([
		['JPEG, then text', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF some more text here')],
		['GIF, then text', bytes('GIF89a', 'followed by only text!')],
		['a DNG (TIFF header), then text', bytes(DNG.toString('latin1'), 'text after the header')],
		['a PSD header, then text', bytes(PSD.toString('latin1'), 'text after the header')],
		['an ICO header, then text', bytes(ICO.toString('latin1'), 'text after the header')],
		['an ASF header, then text', bytes(ASF.toString('latin1'), 'text after the header')],
		['a PDF', bytes('%PDF-1.7\nsome text of a document')],
		['random bytes', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919 + i * i) % 256))],
		['seven letters', bytes('abcdefg')],
	])('not text: %s', (_, data) => {
		expect(sniffText(data)).toBeUndefined();
	});
});

describe('decideType: name and Content-Type from the name, the MIME type and the first bytes', () => {
	it('treats empty, text/plain and octet-stream MIME types as saying nothing', () => {
		const generic = ['', 'text/plain', 'text/plain; charset=utf-8', 'application/octet-stream'];
		for (const type of [undefined, ...generic, 'binary/octet-stream'])
			expect(isGenericMediaType(type)).toBe(true);
		expect(isGenericMediaType('image/jpeg')).toBe(false);
	});

	it.each([
		['IMG_0001', 'text/plain', JPEG, 'IMG_0001.jpg', 'image/jpeg', 'JPEG'],
		['IMG_0002', undefined, ftyp('heic'), 'IMG_0002.heic', 'image/heic', 'HEIF (heic)'],
		['clip', 'application/octet-stream', ftyp('isom'), 'clip.mp4', 'video/mp4', 'MP4 (isom)'],
		['layers', undefined, PSD, 'layers.psd', 'image/vnd.adobe.photoshop', 'Photoshop'],
	])('names %s (%s) from its content', (name, mime, head, fileName, contentType, label) => {
		expect(decideType(name, mime, head, strict)).toEqual({
			ok: true,
			fileName,
			contentType,
			fromContent: label,
			warnings: [
				`Type identified from content: ${label}. "${name}" has no extension and its MIME type (${mime || 'none'}) says nothing, so it is sent as "${fileName}" (${contentType}).`,
			],
		});
	});

	const sent = (fileName: string, contentType: string) => ({ ok: true, fileName, contentType });
	const refused = (kind: string, reason: string) => ({ ok: false, kind, reason });
	const sentAs = (name: string, type: string) => `"${name}" would be sent as ${type}`;
	const notMedia = (name: string, type: string, markup = '') =>
		refused('notMedia', `${sentAs(name, type)},${markup} which is neither a photo nor a video`);
	const content = (kind: string, name: string, type: string, what: string) =>
		refused(kind, `${sentAs(name, type)}, but its content is ${what}, not a photo or video`);
	const PDF = bytes('%PDF-1.7');
	const SVG = bytes('<svg xmlns="http://www.w3.org/2000/svg">');
	const markup = ' markup that can carry scripts,';

	it.each([
		// a name with an extension keeps it; a MIME type that says something names the file
		['a.png', 'text/plain', PNG, strict, { ...sent('a.png', 'image/png'), warnings: [] }],
		['a', 'image/png', PNG, strict, { ...sent('a.png', 'image/png'), fromContent: undefined }],
		// neither a photo nor a video: refused unless File Types is "Any File"
		['notes', 'text/plain', RANDOM, strict, notMedia('notes.txt', 'text/plain')],
		['song.mp3', 'audio/mpeg', RANDOM, strict, notMedia('song.mp3', 'audio/mpeg')],
		['menu.pdf', 'application/pdf', PDF, strict, notMedia('menu.pdf', 'application/pdf')],
		['a.jpg', 'image/jpeg', PDF, strict, content('notMedia', 'a.jpg', 'image/jpeg', 'PDF')],
		['menu.pdf', 'application/pdf', PDF, anyFile, sent('menu.pdf', 'application/pdf')],
		// SVG is markup (issue 19)
		['logo.svg', 'image/svg+xml', SVG, strict, notMedia('logo.svg', 'image/svg+xml', markup)],
		['logo.svg', 'image/svg+xml', SVG, anyFile, sent('logo.svg', 'image/svg+xml')],
		// text or HTML sent as a photo
		['photo.jpg', 'image/jpeg', HTML, strict, content('text', 'photo.jpg', 'image/jpeg', 'HTML')],
		['scan.zzz', undefined, HTML, unknownToo, { ok: false, kind: 'text' }],
		['photo.jpg', 'image/jpeg', HTML, anyFile, sent('photo.jpg', 'image/jpeg')],
		// a type the node can check whose bytes are no format it knows; RAW types are not checked
		[
			'a.jpg',
			'image/jpeg',
			RANDOM,
			strict,
			refused(
				'unrecognised',
				`${sentAs('a.jpg', 'image/jpeg')}, but its first bytes are no photo or video format the node knows`,
			),
		],
		['a.dng', undefined, RANDOM, strict, sent('a.dng', 'image/x-adobe-dng')],
		// octet-stream only with File Types "Photos, Videos and Unknown Types" (or "Any File")
		[
			'scan.zzz',
			undefined,
			RANDOM,
			strict,
			refused('unknown', 'the extension ".zzz" of "scan.zzz" has no known media type'),
		],
		[
			'scan',
			'application/x-unknown',
			RANDOM,
			strict,
			refused(
				'unknown',
				`"scan" has no extension and the binary's MIME type (application/x-unknown) gives none`,
			),
		],
		['scan', 'application/octet-stream', RANDOM, strict, { ok: false, kind: 'notMedia' }],
		['scan.zzz', undefined, RANDOM, unknownToo, sent('scan.zzz', 'application/octet-stream')],
		['IMG_1.cr2', undefined, RANDOM, unknownToo, sent('IMG_1.cr2', 'application/octet-stream')],
	])('%#: %s (%s)', (name, mime, head, rules, expected) => {
		expect(decideType(name, mime, head, rules)).toMatchObject(expected);
	});

	it('warns when the bytes are another photo format than the name says', () => {
		expect(decideType('a.jpg', 'image/jpeg', PNG, strict)).toEqual({
			...sent('a.jpg', 'image/jpeg'),
			warnings: [
				'"a.jpg" is sent as image/jpeg (from its name), but its bytes are PNG (image/png). Rename the file with the right extension if the album shows it wrong.',
			],
		});
	});

	it.each([
		['a.heif', ftyp('mif1')],
		['a.heic', ftyp('mif1')],
		['a.m4v', ftyp('mp42')],
		['a.mov', ftyp('isom')],
		['a.cr2', bytes('MM\0*')],
		['a.ico', ICO],
		['a.wmv', ASF],
		['a.bin', JPEG], // octet-stream: no type to contradict
	])('does not warn for %s, a name of the same container family', (name, head) => {
		expect(decideType(name, undefined, head, unknownToo)).toMatchObject({ ok: true, warnings: [] });
	});
});

describe('extensionOf', () => {
	it.each([
		['a.JPG', 'jpg'],
		['archive.tar.gz', 'gz'],
		['noext', ''],
		['.jpg', ''],
		['dot.', ''],
	])('%p -> %p', (name, ext) => expect(extensionOf(name)).toBe(ext));
});
