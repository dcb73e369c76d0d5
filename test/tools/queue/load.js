// @ts-check
'use strict';

/**
 * Photos for the queue-mode tier and the HTTP calls that feed them to the webhooks: each batch is
 * one multipart POST (fields f0, f1, ... become binary fields of one item, one execution).
 */

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Agent, FormData, fetch } = require('undici');

const SAMPLE = fs.readFileSync(
	path.join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg'),
);

/**
 * @typedef {{ name: string, data: Buffer, sha256: string }} Photo
 */

/** @param {Buffer} data */
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * `count` distinct JPEG files of `bytes` bytes each: a real JPEG with random bytes after its end
 * (viewers ignore them), so every file has its own content hash.
 * @param {string} prefix
 * @param {number} count
 * @param {number} [bytes]
 * @returns {Photo[]}
 */
function makePhotos(prefix, count, bytes = 48 * 1024) {
	return Array.from({ length: count }, (_, i) => {
		const data = Buffer.concat([SAMPLE, crypto.randomBytes(Math.max(16, bytes - SAMPLE.length))]);
		return { name: `${prefix}-${String(i).padStart(4, '0')}.jpg`, data, sha256: sha256(data) };
	});
}

/**
 * @template T
 * @param {T[]} list
 * @param {number} size
 * @returns {T[][]}
 */
function chunk(list, size) {
	const out = [];
	for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
	return out;
}

/**
 * One execution: the photos as one multipart POST; resolves with what Respond to Webhook sent.
 * @param {string} url
 * @param {Array<{ name: string, data: Buffer }>} photos
 * @returns {Promise<{ executionId: string, results: any[] }>}
 */
async function postBatch(url, photos) {
	const body = new FormData();
	photos.forEach((photo, i) => body.append(`f${i}`, new Blob([photo.data]), photo.name));
	// A connection of its own: a kept-alive one that main closes just as the POST starts fails it.
	const dispatcher = new Agent();
	let response;
	let text;
	try {
		response = await fetch(url, { method: 'POST', body, dispatcher });
		text = await response.text();
	} catch (error) {
		throw new Error(`POST ${url} failed: ${/** @type {any} */ (error).cause ?? error}`);
	} finally {
		await dispatcher.close();
	}
	assert.equal(response.status, 200, `webhook answered ${response.status}: ${text.slice(0, 500)}`);
	try {
		return JSON.parse(text);
	} catch {
		throw new Error(
			`webhook answered 200 without the JSON of Respond to Webhook: "${text.slice(0, 500)}"`,
		);
	}
}

/**
 * Posts every batch at once (several executions in the queue together) and times the whole.
 * @param {string} url
 * @param {Photo[]} photos
 * @param {number} perExecution
 */
async function runLoad(url, photos, perExecution) {
	const started = Date.now();
	const answers = await Promise.all(
		chunk(photos, perExecution).map((batch) => postBatch(url, batch)),
	);
	return { seconds: (Date.now() - started) / 1000, answers };
}

/**
 * Which worker ran which execution, from the ids the workers logged.
 * @param {Array<{ executionId: string, results: any[] }>} answers
 * @param {import('./cluster').Worker[]} workers
 * @returns {Map<string, { executions: string[], files: number }>}
 */
function byWorker(answers, workers) {
	/** @type {Map<string, { executions: string[], files: number }>} */
	const table = new Map();
	for (const answer of answers) {
		const id = String(answer.executionId);
		const worker = workers.find((w) => w.executions().includes(id));
		const name = worker ? worker.name : 'no worker logged it';
		const row = table.get(name) ?? { executions: [], files: 0 };
		row.executions.push(id);
		row.files += answer.results.length;
		table.set(name, row);
	}
	return table;
}

/**
 * Every photo stored exactly once (by content), nothing else with this prefix.
 * @param {Array<{ fileName: string, sha256: string }>} uploads the emulator's records
 * @param {Photo[]} photos
 */
function assertExactlyOnce(uploads, photos) {
	const names = new Set(photos.map((p) => p.name));
	const stored = uploads.filter((u) => names.has(u.fileName));
	/** @type {Map<string, number>} */
	const counts = new Map();
	for (const u of stored) counts.set(u.sha256, (counts.get(u.sha256) ?? 0) + 1);
	const missing = photos.filter((p) => !counts.has(p.sha256)).map((p) => p.name);
	const twice = photos.filter((p) => (counts.get(p.sha256) ?? 0) > 1).map((p) => p.name);
	assert.deepEqual(missing, [], `${missing.length} files never arrived`);
	assert.deepEqual(twice, [], `${twice.length} files arrived more than once`);
	assert.equal(stored.length, photos.length);
}

module.exports = { makePhotos, chunk, postBatch, runLoad, byWorker, assertExactlyOnce, sha256 };
