// @ts-check
'use strict';

/**
 * Booth photos for the night tier: real JPEGs of a few MB, grown from the sample photos of
 * test/fixtures/samples/ so that their structure is whole only when the last byte is written.
 *
 *   SOI, the sample's APP0 and APP1 (JFIF, EXIF with its capture time)
 *   APP3 "EPPREVIEW": the whole sample JPEG as an embedded preview, SOI..EOI, as a camera's EXIF
 *        thumbnail sits inside its APP1 (so a file cut after it still holds an FF D9 somewhere)
 *   APP15 "EPNIGHT" segments of random bytes, as many as the size needs (each photo differs)
 *   the sample's tables, frame, scan and EOI
 *
 * Every decoder skips APPn segments, so each photo shows the sample's picture. A strict prefix of
 * a photo is never whole: it ends inside a segment (its length runs past the end) or inside the
 * scan (no EOI). `jpegIsWhole` is that check, for the tier's own tests.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const SAMPLES_DIR = path.join(__dirname, '..', '..', 'fixtures', 'samples');
const SAMPLE_NAMES = ['booth-0001.jpg', 'booth-0002.jpg', 'booth-0003.jpg'];
const PREVIEW_ID = Buffer.from('EPPREVIEW\0', 'latin1');
const PAD_ID = Buffer.from('EPNIGHT\0', 'latin1');
/** A segment's length field counts itself: at most 65535, so 65533 bytes of content. */
const MAX_SEGMENT_CONTENT = 65533;

/** @type {Buffer[] | undefined} */
let samples;
/** @returns {Buffer[]} the sample JPEGs, read once */
function sampleJpegs() {
	samples ??= SAMPLE_NAMES.map((name) => fs.readFileSync(path.join(SAMPLES_DIR, name)));
	return samples;
}

/**
 * @param {number} marker e.g. 0xef for APP15
 * @param {Buffer[]} content
 */
function segment(marker, content) {
	const length = content.reduce((sum, part) => sum + part.length, 0) + 2;
	if (length > 65535)
		throw new Error(`a JPEG segment holds at most 65533 bytes, not ${length - 2}`);
	const head = Buffer.from([0xff, marker, length >> 8, length & 0xff]);
	return Buffer.concat([head, ...content]);
}

/**
 * Where a sample's APPn segments end (its first marker that is not SOI or APPn).
 * @param {Buffer} jpeg
 */
function endOfAppSegments(jpeg) {
	let at = 2;
	while (jpeg[at] === 0xff && jpeg[at + 1] >= 0xe0 && jpeg[at + 1] <= 0xef)
		at += 2 + jpeg.readUInt16BE(at + 2);
	return at;
}

/**
 * APP15 padding segments of random bytes, `bytes` long in all (at least 12).
 * @param {number} bytes
 */
function padding(bytes) {
	const overhead = 4 + PAD_ID.length;
	const count = Math.ceil(bytes / (4 + MAX_SEGMENT_CONTENT));
	const parts = [];
	let left = bytes;
	for (let i = 0; i < count; i++) {
		const total = Math.floor(left / (count - i));
		parts.push(segment(0xef, [PAD_ID, crypto.randomBytes(total - overhead)]));
		left -= total;
	}
	return parts;
}

/**
 * A photo of exactly `size` bytes (at least about 21 KB), grown from sample `index` (mod 3).
 * @param {{ size: number, sample?: number }} options
 * @returns {Buffer}
 */
function makePhoto({ size, sample = 0 }) {
	const jpeg = sampleJpegs()[sample % SAMPLE_NAMES.length];
	const split = endOfAppSegments(jpeg);
	const head = jpeg.subarray(0, split);
	const tail = jpeg.subarray(split);
	const preview = segment(0xe3, [PREVIEW_ID, jpeg]);
	const left = size - head.length - preview.length - tail.length;
	if (left < 1024) throw new Error(`a photo grown from that sample needs more than ${size} bytes`);
	const photo = Buffer.concat([head, preview, ...padding(left), tail]);
	if (photo.length !== size) throw new Error(`made ${photo.length} bytes instead of ${size}`);
	return photo;
}

/**
 * Whether a JPEG's own structure is whole: SOI, segments whose lengths fit, a scan, EOI as its last
 * two bytes. What a reader can tell without decoding the picture.
 * @param {Buffer} bytes
 */
function jpegIsWhole(bytes) {
	if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
	let at = 2;
	while (at + 4 <= bytes.length) {
		if (bytes[at] !== 0xff) return false;
		const marker = bytes[at + 1];
		const end = at + 2 + bytes.readUInt16BE(at + 2);
		if (end > bytes.length) return false;
		if (marker === 0xda) {
			// the scan runs to the EOI: the last two bytes, with nothing after them
			return bytes.length - end >= 2 && bytes[bytes.length - 2] === 0xff && bytes.at(-1) === 0xd9;
		}
		at = end;
	}
	return false;
}

module.exports = { makePhoto, jpegIsWhole, sampleJpegs };
