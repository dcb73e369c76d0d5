// @ts-check
'use strict';

/**
 * The night's figures, from the executions n8n logged (executions.js) and the /proc samples
 * (sampler.js): for the run
 * at 25 %, 50 % and 100 % of the folder (the first successful execution that started once the
 * folder held that share of the night's photos) its time, n8n's peak memory while it ran, what n8n
 * read meanwhile, and the binary data it kept; and the night's peaks. Plain numbers; tables.js
 * prints them.
 */

/**
 * @typedef {import('./sampler').Sample} Sample
 * @typedef {{ id: string, mode: string, status: string, startedAt: number | null, stoppedAt: number | null, nodes: string[], nodeMs: Record<string, number> }} Execution
 */

/**
 * @typedef {object} RunFigures
 * @property {number} mark 25, 50 or 100
 * @property {number} folderPhotos photos in the folder when the run started
 * @property {number} folderBytes their bytes
 * @property {string} id the execution
 * @property {number} startedAt
 * @property {number} ms how long it ran
 * @property {number} rss n8n's peak resident memory while it ran (n8n and its children)
 * @property {number | null} rchar bytes n8n read meanwhile (all its reads, page cache included)
 * @property {number | null} readBytes bytes n8n read from the disk meanwhile
 * @property {number | null} binary bytes the execution keeps in the binary data folder (null: no folder)
 * @property {number} binaryFolder the binary data folder's largest size while it ran
 */

/**
 * The samples taken while an execution ran, with the one just before and the one just after.
 * @param {Sample[]} samples sorted by time
 * @param {number} from
 * @param {number} to
 */
function around(samples, from, to) {
	let first = 0;
	while (first + 1 < samples.length && samples[first + 1].at <= from) first++;
	let last = first;
	while (last + 1 < samples.length && samples[last].at < to) last++;
	return samples.slice(first, last + 1);
}

/**
 * @param {Execution} execution
 * @param {Sample[]} samples
 */
function runFigures(execution, samples) {
	const from = /** @type {number} */ (execution.startedAt);
	const to = /** @type {number} */ (execution.stoppedAt);
	const window = around(samples, from, to);
	const same = window.filter((s) => s.generation > 0 && s.generation === window.at(-1)?.generation);
	const delta = (/** @type {'rchar' | 'readBytes'} */ key) =>
		same.length >= 2 ? /** @type {Sample} */ (same.at(-1))[key] - same[0][key] : null;
	return {
		id: execution.id,
		startedAt: from,
		ms: to - from,
		rss: Math.max(0, ...window.map((s) => s.rss)),
		binaryFolder: Math.max(0, ...window.map((s) => s.binary)),
		rchar: delta('rchar'),
		readBytes: delta('readBytes'),
		binary: null,
	};
}

/**
 * `uploads` names the Upload nodes: a mark's run is one in which an Upload node ran (not a run that
 * Keep New Files ended, such as the catch-up of a photo uploaded before), when there is one.
 * @param {{ executions: Execution[], samples: Sample[], photos: Array<{ finishedAt: number }>,
 *   heldAt: (at: number) => { photos: number, bytes: number }, uploads?: string[] }} night
 * @returns {RunFigures[]} (`binary` null: the caller measures it)
 */
function marks({ executions, samples, photos, heldAt, uploads = [] }) {
	const successful = executions.filter(
		(e) => e.status === 'success' && e.startedAt !== null && e.stoppedAt !== null,
	);
	const uploading = successful.filter((e) => e.nodes.some((name) => uploads.includes(name)));
	const done = (uploading.length > 0 ? uploading : successful).sort(
		(a, b) => /** @type {number} */ (a.startedAt) - /** @type {number} */ (b.startedAt),
	);
	/** @type {RunFigures[]} */
	const out = [];
	for (const mark of [25, 50, 100]) {
		const photo = photos[Math.max(0, Math.ceil((photos.length * mark) / 100) - 1)];
		const run = photo && done.find((e) => /** @type {number} */ (e.startedAt) >= photo.finishedAt);
		if (!run) continue;
		const held = heldAt(/** @type {number} */ (run.startedAt));
		out.push({
			mark,
			folderPhotos: held.photos,
			folderBytes: held.bytes,
			...runFigures(run, samples),
		});
	}
	return out;
}

/**
 * The largest value of `key` among samples taken in [from, to).
 * @param {Sample[]} samples
 * @param {'rss' | 'mainRss' | 'binary'} key
 * @param {number} [from]
 * @param {number} [to]
 */
function peak(samples, key, from = -Infinity, to = Infinity) {
	return Math.max(0, ...samples.filter((s) => s.at >= from && s.at < to).map((s) => s[key]));
}

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

module.exports = { marks, runFigures, peak, median, around };
