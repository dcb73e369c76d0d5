// @ts-check
'use strict';

/**
 * Test inputs that are an ordinary photo or video to the node: the first bytes of the format its name
 * says, then random bytes. The Upload operation refuses a file named as a photo or video whose first
 * bytes are no format it knows (nodes/EventPics/helpers/sniff.ts), so plain `randomBytes(n)` named
 * `a.jpg` is refused; `mediaBytes(n, 'jpg')` goes up, and, like `randomBytes`, differs on each call.
 *
 *   const { mediaBytes } = require('./test/tools/media-bytes');
 *   mediaBytes(5000);          // a JPEG of 5000 bytes
 *   mediaBytes(3 * MiB, 'mp4'); // an MP4 (brand isom)
 */

const crypto = require('node:crypto');

/** @param {string} text */
const latin1 = (text) => [...Buffer.from(text, 'latin1')];
/** An ISO base media file's `ftyp` box (24 bytes long) with `brand` as its major brand. */
const ftyp = (/** @type {string} */ brand) => [0, 0, 0, 0x18, ...latin1(`ftyp${brand}`)];

/**
 * The first bytes of each format, by the extensions the node names it with. RIFF and EBML hold a
 * length field after the magic: random there, as any length is accepted.
 * @type {Record<string, Array<number | undefined>>}
 */
const SIGNATURES = {
	jpg: [0xff, 0xd8, 0xff, 0xe0],
	png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
	gif: latin1('GIF89a'),
	webp: [...latin1('RIFF'), undefined, undefined, undefined, undefined, ...latin1('WEBP')],
	avi: [...latin1('RIFF'), undefined, undefined, undefined, undefined, ...latin1('AVI ')],
	tif: [0x49, 0x49, 0x2a, 0x00],
	bmp: latin1('BM'),
	heic: ftyp('heic'),
	heif: ftyp('mif1'),
	avif: ftyp('avif'),
	mp4: ftyp('isom'),
	m4v: ftyp('M4V '),
	'3gp': ftyp('3gp4'),
	mov: ftyp('qt  '),
	webm: [0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x84, ...latin1('webm')],
	mkv: [0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x88, ...latin1('matroska')],
	mpg: [0x00, 0x00, 0x01, 0xba],
};
/** @type {Record<string, string>} */
const SAME = { jpeg: 'jpg', jpe: 'jpg', tiff: 'tif', mpeg: 'mpg', qt: 'mov' };

/**
 * `size` bytes: the signature of the format `extension` names (jpg, png, gif, webp, heic, heif, avif,
 * tif, bmp, mp4, m4v, 3gp, mov, avi, webm, mkv, mpg; case and a leading dot do not matter), then
 * random bytes.
 * @param {number} size
 * @param {string} [extension]
 * @returns {Buffer}
 */
function mediaBytes(size, extension = 'jpg') {
	const wanted = extension.replace(/^\./, '').toLowerCase();
	const signature = SIGNATURES[SAME[wanted] ?? wanted];
	if (!signature) throw new Error(`mediaBytes: no signature for "${extension}"`);
	// a BMP is recognised from 14 bytes (its file header) on
	if (!Number.isInteger(size) || size < Math.max(signature.length, wanted === 'bmp' ? 14 : 0))
		throw new Error(`mediaBytes: ${size} bytes cannot hold a ${wanted} file`);
	const bytes = crypto.randomFillSync(Buffer.allocUnsafe(size));
	signature.forEach((value, at) => {
		if (value !== undefined) bytes[at] = value;
	});
	return bytes;
}

module.exports = { mediaBytes };
