// @ts-check
'use strict';

/**
 * Test inputs that are an ordinary photo or video to the node: a file of the format its name says,
 * whole by that format's structure (nodes/EventPics/helpers/wholeness.ts), filled with random bytes.
 * The Upload operation refuses a file named as a photo or video whose first bytes are no format it
 * knows, and does not upload one whose structure says it is cut short, so plain `randomBytes(n)`
 * named `a.jpg` is refused; `mediaBytes(n, 'jpg')` goes up, and, like `randomBytes`, differs on
 * each call. Cut one short with `subarray`.
 *
 *   const { mediaBytes } = require('./test/tools/media-bytes');
 *   mediaBytes(5000);          // a JPEG of 5000 bytes
 *   mediaBytes(3 * MiB, 'mp4'); // an MP4 (brand isom)
 */

const crypto = require('node:crypto');

/** @param {number} size */
const random = (size) => crypto.randomFillSync(Buffer.allocUnsafe(size));
/** @param {number} value @param {number} bytes */
const bigEndian = (value, bytes) => {
	const buffer = Buffer.alloc(bytes);
	buffer.writeUIntBE(value, 0, bytes);
	return buffer;
};
/** An ISO-BMFF box: its size, its type and `payload`. @param {string} type @param {Buffer} payload */
const box = (type, payload) => Buffer.concat([bigEndian(8 + payload.length, 4), Buffer.from(type, 'latin1'), payload]);

/**
 * A JPEG: SOI, comment segments of random bytes, fill bytes, EOI (at least 4 bytes).
 * @param {number} size
 */
function jpeg(size) {
	const parts = [Buffer.from([0xff, 0xd8])];
	let left = size - 4;
	while (left >= 4) {
		const payload = Math.min(left - 4, 65533);
		parts.push(Buffer.from([0xff, 0xfe]), bigEndian(payload + 2, 2), random(payload));
		left -= payload + 4;
	}
	parts.push(Buffer.alloc(left, 0xff), Buffer.from([0xff, 0xd9]));
	return parts;
}

/** A PNG: signature, a private chunk of random bytes, IEND (at least 32 bytes). @param {number} size */
function png(size) {
	const chunk = (/** @type {string} */ type, /** @type {Buffer} */ data) =>
		Buffer.concat([bigEndian(data.length, 4), Buffer.from(type, 'latin1'), data, random(4)]);
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return [signature, chunk('ruSt', random(size - 32)), chunk('IEND', Buffer.alloc(0))];
}

/**
 * An ISO-BMFF file: `ftyp` with `brand`, a movie header (moov) or image index (meta: an empty full
 * box), then media data of random bytes (at least 48 bytes).
 * @param {string} brand @param {number} size
 */
function iso(brand, size) {
	const ftyp = box('ftyp', Buffer.from(`${brand}\0\0\0\0${brand}mp41`, 'latin1'));
	const index = ['heic', 'mif1', 'avif'].includes(brand) ? box('meta', Buffer.alloc(4)) : box('moov', random(4));
	return [ftyp, index, box('mdat', random(size - ftyp.length - index.length - 8))];
}

/**
 * A GIF: header without color table, a comment of random bytes, trailer. At least 14 bytes; 15, 16
 * and 18 cannot be made (a comment takes 3 bytes, or 5 and more).
 * @param {number} size
 */
function gif(size) {
	const comment = size - 14;
	if (comment === 1 || comment === 2 || comment === 4)
		throw new Error(`mediaBytes: a GIF cannot be ${size} bytes`);
	const blocks = [];
	for (let rest = comment - 3; rest > 0; ) {
		let length = Math.min(255, rest - 1);
		if (rest - length - 1 === 1) length--; // a single byte left could not be a sub-block
		blocks.push(Buffer.from([length]), random(length));
		rest -= length + 1;
	}
	const extension = comment === 0 ? [] : [Buffer.from([0x21, 0xfe]), ...blocks, Buffer.from([0])];
	return [Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), ...extension, Buffer.from([0x3b])];
}

/** A RIFF file (WebP, AVI) of `size` bytes: its length in its header. @param {string} kind @param {number} size */
function riff(kind, size) {
	const head = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from(kind, 'latin1')]);
	head.writeUInt32LE(size - 8, 4);
	return [head, random(size - 12)];
}

/** A TIFF: header, an IFD whose one strip is the random bytes after it (at least 39 bytes). @param {number} size */
function tiff(size) {
	const head = Buffer.alloc(38);
	head.write('II*\0', 0, 'latin1');
	head.writeUInt32LE(8, 4); // IFD0 at 8, two entries, no next IFD
	head.writeUInt16LE(2, 8);
	const entry = (/** @type {number} */ at, /** @type {number} */ tag, /** @type {number} */ value) => {
		head.writeUInt16LE(tag, at);
		head.writeUInt16LE(4, at + 2); // LONG
		head.writeUInt32LE(1, at + 4);
		head.writeUInt32LE(value, at + 8);
	};
	entry(10, 273, 38); // StripOffsets
	entry(22, 279, size - 38); // StripByteCounts
	return [head, random(size - 38)];
}

/** A BMP: its file header with its size, random bytes (at least 14 bytes). @param {number} size */
function bmp(size) {
	const head = Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(12)]);
	head.writeUInt32LE(size, 2);
	return [head, random(size - 14)];
}

/** A format whose end the node cannot check: its first bytes, then random ones. @param {number[]} signature */
const signed = (signature) => (/** @type {number} */ size) => [Buffer.from(signature), random(size - signature.length)];
/** @param {string} text */
const latin1 = (text) => [...Buffer.from(text, 'latin1')];

/**
 * Each format by the extension the node names it with, and its least size.
 * @type {Record<string, [(size: number) => Buffer[], number]>}
 */
const FORMATS = {
	jpg: [jpeg, 4],
	png: [png, 32],
	gif: [gif, 14],
	webp: [(size) => riff('WEBP', size), 16],
	avi: [(size) => riff('AVI ', size), 16],
	tif: [tiff, 39],
	bmp: [bmp, 16],
	heic: [(size) => iso('heic', size), 60],
	heif: [(size) => iso('mif1', size), 60],
	avif: [(size) => iso('avif', size), 60],
	mp4: [(size) => iso('isom', size), 60],
	m4v: [(size) => iso('M4V ', size), 60],
	'3gp': [(size) => iso('3gp4', size), 60],
	mov: [(size) => iso('qt  ', size), 60],
	webm: [signed([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x84, ...latin1('webm')]), 11],
	mkv: [signed([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x88, ...latin1('matroska')]), 15],
	mpg: [signed([0x00, 0x00, 0x01, 0xba]), 4],
};
/** @type {Record<string, string>} */
const SAME = { jpeg: 'jpg', jpe: 'jpg', tiff: 'tif', mpeg: 'mpg', qt: 'mov' };

/**
 * `size` bytes of the format `extension` names (jpg, png, gif, webp, heic, heif, avif, tif, bmp, mp4,
 * m4v, 3gp, mov, avi, webm, mkv, mpg; case and a leading dot do not matter), whole, random inside.
 * @param {number} size
 * @param {string} [extension]
 * @returns {Buffer}
 */
function mediaBytes(size, extension = 'jpg') {
	const wanted = extension.replace(/^\./, '').toLowerCase();
	const format = FORMATS[SAME[wanted] ?? wanted];
	if (!format) throw new Error(`mediaBytes: no format for "${extension}"`);
	if (!Number.isInteger(size) || size < format[1])
		throw new Error(`mediaBytes: ${size} bytes cannot hold a whole ${wanted} file (at least ${format[1]})`);
	const bytes = Buffer.concat(format[0](size));
	if (bytes.length !== size) throw new Error(`mediaBytes: made ${bytes.length} bytes of ${wanted}, not ${size}`);
	return bytes;
}

module.exports = { mediaBytes };
