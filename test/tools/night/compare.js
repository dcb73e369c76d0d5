// @ts-check
'use strict';

/**
 * The album against the folder, byte for byte, once the night is over. Each stored file is matched
 * to its photo by name (the final name, or the temporary one it was written under) and is either
 * whole (the same SHA-256 as the finished photo), a prefix (a photo stored while it was still being
 * written), or other bytes. Per photo:
 *
 *   stored once    exactly one whole copy
 *   stored twice   two or more whole copies (`extraCopies` counts the copies beyond the first)
 *   partial        at least one stored copy that is not the whole photo (a prefix, or other bytes)
 *   lost           no whole copy
 *
 * A stored file whose name is no photo's is a stray (listed, and counted as a failure of its own).
 */

const fs = require('node:fs');

/**
 * @typedef {object} PhotoResult
 * @property {string} name
 * @property {number} whole whole copies stored
 * @property {number} prefixes stored copies that are a strict prefix of the photo
 * @property {number} other stored copies with other bytes
 */

/**
 * @typedef {object} AlbumComparison
 * @property {number} photos
 * @property {number} once
 * @property {number} twice
 * @property {number} extraCopies
 * @property {number} partial
 * @property {number} lost
 * @property {string[]} strays stored file names that are no photo's
 * @property {PhotoResult[]} perPhoto
 */

/**
 * Whether `stored` (a file) holds the first bytes of `whole` (a file) and fewer of them.
 * @param {string} stored
 * @param {string} whole
 */
function isStrictPrefix(stored, whole) {
	const a = fs.readFileSync(stored);
	const b = fs.readFileSync(whole);
	return a.length < b.length && b.subarray(0, a.length).equals(a);
}

/**
 * @param {{ photos: Array<{ name: string, path: string, sha256: string }>,
 *   uploads: Array<{ fileName: string, sha256: string, path: string }>,
 *   tempName: (name: string) => string }} options `uploads`: the album's stored files
 * @returns {AlbumComparison}
 */
function compareAlbum({ photos, uploads, tempName }) {
	/** @type {Map<string, PhotoResult>} */
	const results = new Map(
		photos.map((p) => [p.name, { name: p.name, whole: 0, prefixes: 0, other: 0 }]),
	);
	/** @type {Map<string, (typeof photos)[number]>} */
	const byName = new Map();
	for (const photo of photos) {
		byName.set(photo.name, photo);
		byName.set(tempName(photo.name), photo);
	}
	/** @type {string[]} */
	const strays = [];
	for (const upload of uploads) {
		const photo = byName.get(upload.fileName);
		if (!photo) {
			strays.push(upload.fileName);
			continue;
		}
		const result = /** @type {PhotoResult} */ (results.get(photo.name));
		if (upload.sha256 === photo.sha256) result.whole++;
		else if (isStrictPrefix(upload.path, photo.path)) result.prefixes++;
		else result.other++;
	}
	const perPhoto = [...results.values()];
	return {
		photos: photos.length,
		once: perPhoto.filter((r) => r.whole === 1).length,
		twice: perPhoto.filter((r) => r.whole > 1).length,
		extraCopies: perPhoto.reduce((sum, r) => sum + Math.max(0, r.whole - 1), 0),
		partial: perPhoto.filter((r) => r.prefixes + r.other > 0).length,
		lost: perPhoto.filter((r) => r.whole === 0).length,
		strays,
		perPhoto,
	};
}

module.exports = { compareAlbum, isStrictPrefix };
