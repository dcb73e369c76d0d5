// @ts-check
'use strict';

/**
 * A photo booth's night, compressed: it writes `photos` JPEGs (photos.js, 3-6 MB) into its output
 * folder over `seconds`, in bursts of 3-4 (a strip session), each photo written progressively over
 * 1-2 s; every second photo is written under a temporary name and renamed when complete, the
 * others are written in place (a reader can find them half written). Times and sizes come from a
 * seeded generator, so a night can be replayed; the bytes are random (each photo differs).
 *
 * It keeps, for the comparison and the figures, every photo's final name, size and SHA-256, when
 * it was finished, and how many photos and bytes the folder held at any time (`heldAt`).
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const timers = require('node:timers/promises');
const { makePhoto } = require('./photos');

const MB = 1024 * 1024;

/** A small seeded generator (mulberry32): the same seed gives the same night. */
function generator(/** @type {number} */ seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * @typedef {object} PlannedPhoto
 * @property {string} name final file name, e.g. booth-0001.jpg
 * @property {number} size bytes
 * @property {number} startMs when its writing starts, from the night's start
 * @property {number} writeMs how long its writing takes (1-2 s)
 * @property {boolean} viaTemp written under the temporary name, then renamed
 */

/**
 * @typedef {object} WrittenPhoto
 * @property {string} name
 * @property {string} path
 * @property {number} size
 * @property {string} sha256
 * @property {boolean} viaTemp
 * @property {number} startedAt Date.now() when its first byte was written
 * @property {number} finishedAt Date.now() when it was complete under its final name
 */

/**
 * The night's plan: bursts spread evenly over `seconds` with some jitter, 3-4 photos each, a photo
 * started 0.2-0.8 s after the previous one of its burst finished.
 * @param {{ photos: number, seconds: number, seed: number, minBytes?: number, maxBytes?: number }} options
 * @returns {PlannedPhoto[]}
 */
function planNight({ photos, seconds, seed, minBytes = 3 * MB, maxBytes = 6 * MB }) {
	const random = generator(seed);
	/** @type {number[]} */
	const bursts = [];
	for (let left = photos; left > 0;) {
		let size = random() < 0.5 ? 3 : 4;
		// no burst of 1 or 2 at the end: 3s and 4s make every number from 6 on
		if ([1, 2, 5].includes(left - size)) size = 7 - size;
		size = Math.min(left, size);
		bursts.push(size);
		left -= size;
	}
	const spacing = (seconds * 1000) / bursts.length;
	/** @type {PlannedPhoto[]} */
	const plan = [];
	let end = 0;
	bursts.forEach((count, b) => {
		// a burst starts on its slot, or a second after the previous one ended when that ran late
		let at = Math.max(b * spacing + random() * spacing * 0.3, end + 1000);
		for (let i = 0; i < count; i++) {
			const writeMs = 1000 + Math.round(random() * 1000);
			const n = plan.length + 1;
			plan.push({
				name: `booth-${String(n).padStart(4, '0')}.jpg`,
				size: Math.round(minBytes + random() * (maxBytes - minBytes)),
				startMs: Math.round(at),
				writeMs,
				viaTemp: n % 2 === 0,
			});
			end = at + writeMs;
			at = end + 200 + random() * 600;
		}
	});
	return plan;
}

/**
 * Waits `ms` (the booth's own clock), or less when `signal` aborts.
 * @param {number} ms @param {AbortSignal} signal
 */
const sleep = (ms, signal) =>
	timers.setTimeout(Math.max(0, ms), undefined, { signal }).catch(() => undefined);

/**
 * @typedef {object} Booth
 * @property {PlannedPhoto[]} plan
 * @property {WrittenPhoto[]} written the photos complete so far, in the order they were finished
 * @property {Promise<void>} halfway resolves once half the photos are complete
 * @property {Promise<WrittenPhoto[]>} done resolves once every photo is complete
 * @property {(at: number) => { photos: number, bytes: number }} heldAt what the folder held (complete photos) at a Date.now() time
 * @property {() => void} stop stops writing (a photo being written stays as it is)
 */

/**
 * Starts the booth now. `tempName` turns a final name into the temporary one (default
 * `<name>.tmp`, which a `*.jpg` pattern does not match).
 * @param {{ folder: string, plan: PlannedPhoto[], tempName?: (name: string) => string }} options
 * @returns {Booth}
 */
function startBooth({ folder, plan, tempName = (name) => `${name}.tmp` }) {
	const started = Date.now();
	/** @type {WrittenPhoto[]} */
	const written = [];
	const stopping = new AbortController();
	const { signal } = stopping;
	/** @type {() => void} */
	let halfDone = () => undefined;
	/** @type {Promise<void>} */
	const halfway = new Promise((resolve) => {
		halfDone = () => resolve(undefined);
	});
	const half = Math.ceil(plan.length / 2);

	/** @param {PlannedPhoto} photo */
	async function write(photo) {
		const bytes = makePhoto({ size: photo.size, sample: plan.indexOf(photo) });
		const final = path.join(folder, photo.name);
		const target = photo.viaTemp ? path.join(folder, tempName(photo.name)) : final;
		const chunks = Math.max(4, Math.round(photo.writeMs / 100));
		const handle = await fs.promises.open(target, 'wx');
		const startedAt = Date.now();
		try {
			for (let i = 0; i < chunks && !signal.aborted; i++) {
				const from = Math.floor((bytes.length * i) / chunks);
				const to = Math.floor((bytes.length * (i + 1)) / chunks);
				await handle.write(bytes, from, to - from);
				await sleep(startedAt + ((i + 1) * photo.writeMs) / chunks - Date.now(), signal);
			}
		} finally {
			await handle.close();
		}
		if (signal.aborted) return;
		if (photo.viaTemp) await fs.promises.rename(target, final);
		written.push({
			name: photo.name,
			path: final,
			size: bytes.length,
			sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
			viaTemp: photo.viaTemp,
			startedAt,
			finishedAt: Date.now(),
		});
		if (written.length === half) halfDone();
	}

	const done = (async () => {
		// one photo after the other (a booth has one camera); a late photo starts at once
		for (const photo of plan) {
			await sleep(started + photo.startMs - Date.now(), signal);
			if (signal.aborted) break;
			await write(photo);
		}
		if (written.length < half) halfDone();
		return written;
	})();

	return {
		plan,
		written,
		halfway,
		done,
		heldAt: (at) => {
			const held = written.filter((photo) => photo.finishedAt <= at);
			return { photos: held.length, bytes: held.reduce((sum, photo) => sum + photo.size, 0) };
		},
		stop: () => stopping.abort(),
	};
}

module.exports = { planNight, startBooth, generator, MB };
