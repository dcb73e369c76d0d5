import { decideType, isGenericMediaType } from '../../../nodes/EventPics/helpers/mediaType';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic')]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 32]), Buffer.from('ftypisom')]);
const HTML = Buffer.from('<!doctype html><html><head><title>Please sign in</title>');
const RANDOM = Buffer.from([0x13, 0x9a, 0x00, 0x44, 0xfe, 0x01, 0x02, 0x03, 0x80, 0x81]);
const strict = { allowUnknown: false, allowOther: false };

describe('decideType: name and Content-Type from the name, the MIME type and the first bytes', () => {
	it('treats empty, text/plain and octet-stream MIME types as saying nothing', () => {
		for (const type of [
			undefined,
			'',
			'text/plain',
			'text/plain; charset=utf-8',
			'application/octet-stream',
			'binary/octet-stream',
		]) {
			expect(isGenericMediaType(type)).toBe(true);
		}
		expect(isGenericMediaType('image/jpeg')).toBe(false);
	});

	it.each([
		['IMG_0001', 'text/plain', JPEG, 'IMG_0001.jpg', 'image/jpeg', 'JPEG'],
		['IMG_0002', undefined, HEIC, 'IMG_0002.heic', 'image/heic', 'HEIF (heic)'],
		['clip', 'application/octet-stream', MP4, 'clip.mp4', 'video/mp4', 'MP4 (isom)'],
	])('names %s (%s) from its content', (name, mime, head, fileName, contentType, label) => {
		const decided = decideType(name, mime, head, strict);
		expect(decided).toMatchObject({ ok: true, fileName, contentType, fromContent: label });
		expect(decided.ok && decided.warnings[0]).toBe(
			`Type identified from content: ${label}. "${name}" has no extension and its MIME type (${mime ?? 'none'}) says nothing, so it is sent as "${fileName}" (${contentType}).`,
		);
	});

	it('keeps a name that has an extension, and a MIME type that says something', () => {
		expect(decideType('a.png', 'text/plain', JPEG, strict)).toMatchObject({
			ok: true,
			fileName: 'a.png',
			contentType: 'image/png',
		});
		expect(decideType('a', 'image/png', JPEG, strict)).toMatchObject({
			ok: true,
			fileName: 'a.png',
			contentType: 'image/png',
		});
		expect(decideType('a', 'image/png', JPEG, strict)).not.toHaveProperty('fromContent', 'JPEG');
	});

	it('refuses what is neither a photo nor a video unless allowed', () => {
		expect(decideType('notes', 'text/plain', RANDOM, strict)).toEqual({
			ok: false,
			kind: 'notMedia',
			reason: '"notes.txt" would be sent as text/plain, which is neither a photo nor a video',
		});
		expect(
			decideType('menu.pdf', 'application/pdf', Buffer.from('%PDF-1.7'), strict),
		).toMatchObject({ ok: false, kind: 'notMedia' });
		expect(decideType('song.mp3', 'audio/mpeg', RANDOM, strict)).toMatchObject({
			ok: false,
			kind: 'notMedia',
		});
		expect(
			decideType('menu.pdf', 'application/pdf', Buffer.from('%PDF-1.7'), {
				allowUnknown: false,
				allowOther: true,
			}),
		).toMatchObject({ ok: true, contentType: 'application/pdf' });
	});

	it('sends octet-stream only with File Types "Photos, Videos and Unknown Types" (or "Any File")', () => {
		expect(decideType('scan.zzz', undefined, RANDOM, strict)).toMatchObject({
			ok: false,
			kind: 'unknown',
		});
		expect(decideType('scan', 'application/octet-stream', RANDOM, strict)).toMatchObject({
			ok: false,
			kind: 'notMedia',
		});
		expect(
			decideType('scan.zzz', undefined, RANDOM, { allowUnknown: true, allowOther: false }),
		).toMatchObject({ ok: true, contentType: 'application/octet-stream' });
		expect(
			decideType('IMG_1.cr2', undefined, RANDOM, { allowUnknown: true, allowOther: false }),
		).toMatchObject({ ok: true, contentType: 'application/octet-stream' });
	});

	it('refuses text or HTML sent as a photo or video, unless allowed', () => {
		expect(decideType('photo.jpg', 'image/jpeg', HTML, strict)).toEqual({
			ok: false,
			kind: 'text',
			reason:
				'"photo.jpg" would be sent as image/jpeg, but its content is HTML, not a photo or video',
		});
		expect(
			decideType('scan.zzz', undefined, HTML, { allowUnknown: true, allowOther: false }),
		).toMatchObject({ ok: false, kind: 'text' });
		expect(
			decideType('photo.jpg', 'image/jpeg', HTML, { allowUnknown: false, allowOther: true }),
		).toMatchObject({ ok: true, contentType: 'image/jpeg' });
		// SVG is markup: refused as no photo by default (issue 19), taken with File Types "Any File"
		const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">');
		expect(decideType('logo.svg', 'image/svg+xml', svg, strict)).toEqual({
			ok: false,
			kind: 'notMedia',
			reason:
				'"logo.svg" would be sent as image/svg+xml, markup that can carry scripts, which is neither a photo nor a video',
		});
		expect(
			decideType('logo.svg', 'image/svg+xml', svg, { allowUnknown: false, allowOther: true }),
		).toMatchObject({ ok: true, contentType: 'image/svg+xml' });
	});

	it('still warns when the bytes are another photo format than the name says', () => {
		const decided = decideType(
			'a.jpg',
			'image/jpeg',
			Buffer.concat([Buffer.from([0x89]), Buffer.from('PNG\r\n\x1a\n')]),
			strict,
		);
		expect(decided).toMatchObject({ ok: true, contentType: 'image/jpeg' });
		expect(decided.ok && decided.warnings).toEqual([
			expect.stringContaining('its bytes are PNG (image/png)'),
		]);
	});
});
