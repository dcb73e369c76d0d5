// @ts-check
'use strict';

/**
 * The limit the node is measured against: the EventPics two-step upload written directly with
 * undici's `request` (keep-alive pool), no n8n at all. GET /geteventsandalbums once, then per
 * file POST /getuploadurl and PUT the file streamed from disk with its Content-Type and
 * Content-Length, `concurrency` files at a time (a plain worker pool).
 */

const fs = require('node:fs');
const { request } = require('undici');

/**
 * @typedef {{ path: string, name: string, size: number, contentType: string }} RawFile
 */

/**
 * @param {{ baseUrl: string, apiKey: string, linkId: string, albumId?: string, files: RawFile[], concurrency: number }} options
 * @returns {Promise<{ ms: number, uploaded: number }>}
 */
async function rawUpload(options) {
	const { baseUrl, apiKey, linkId, albumId, files, concurrency } = options;
	const started = performance.now();

	const listed = await request(`${baseUrl}/geteventsandalbums`, {
		headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
	});
	if (listed.statusCode !== 200)
		throw new Error(`raw: geteventsandalbums answered ${listed.statusCode}`);
	const { events } = /** @type {{ events: Array<{ linkId: string }> }} */ (
		await listed.body.json()
	);
	if (!events.some((event) => event.linkId === linkId)) throw new Error(`raw: no event ${linkId}`);

	let next = 0;
	let uploaded = 0;
	const worker = async () => {
		while (next < files.length) {
			const file = files[next++];
			/** @type {Record<string, string>} */
			const body = { apiKey, linkId, fileName: file.name };
			if (albumId) body.albumId = albumId;
			const signed = await request(`${baseUrl}/getuploadurl`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify(body),
			});
			if (signed.statusCode !== 200) {
				throw new Error(
					`raw: getuploadurl answered ${signed.statusCode}: ${await signed.body.text()}`,
				);
			}
			const { uploadUrl } = /** @type {{ uploadUrl: string }} */ (await signed.body.json());
			const put = await request(uploadUrl, {
				method: 'PUT',
				headers: { 'content-type': file.contentType, 'content-length': String(file.size) },
				body: fs.createReadStream(file.path),
			});
			const answer = await put.body.text();
			if (put.statusCode !== 200) throw new Error(`raw: PUT answered ${put.statusCode}: ${answer}`);
			uploaded++;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
	return { ms: performance.now() - started, uploaded };
}

module.exports = { rawUpload };
