// @ts-check
'use strict';

/**
 * A cloud drive's folder on 127.0.0.1, shaped like the Google Drive API the import example uses:
 *
 *   GET /drive/v3/files                 { files: [{ id, name, mimeType }] }, the folder's listing
 *   GET /drive/v3/files/<id>?alt=media  the file's body (image/jpeg, Content-Disposition with its name)
 *
 * The folder holds `files` small JPEGs (photos.js); `show(n)` lists the first n of them (0: an empty
 * folder), as a folder that fills up. Every body sent is counted (`downloads`, `bytesSent`), which is
 * how the tier sees that a run with nothing new downloaded nothing.
 *
 * Every answer waits `latencyMs` first (default 200 ms, what a call to a cloud drive's API takes
 * from a venue's or an office's line): a run's fixed cost is that of a real source, not of a
 * loopback server that answers in a millisecond.
 */

const crypto = require('node:crypto');
const http = require('node:http');
const { makePhoto } = require('./photos');

/**
 * @typedef {object} Drive
 * @property {string} url e.g. http://127.0.0.1:40123
 * @property {string} listUrl the listing's address
 * @property {Array<{ id: string, name: string, mimeType: string, bytes: Buffer, sha256: string }>} files every file of the folder
 * @property {(count: number) => void} show lists the first `count` files from now on
 * @property {() => { downloads: number, bytesSent: number, listings: number }} counts so far
 * @property {() => Promise<void>} close
 */

/**
 * @param {{ files: number, bytes?: number, latencyMs?: number }} options
 * @returns {Promise<Drive>}
 */
async function startDrive({ files, bytes = 40 * 1024, latencyMs = 200 }) {
	const all = Array.from({ length: files }, (_, i) => {
		const body = makePhoto({ size: bytes + (i % 7) * 1024, sample: i });
		return {
			id: `1Ep${String(i).padStart(5, '0')}${crypto.randomBytes(6).toString('base64url')}`,
			name: `drive-${String(i + 1).padStart(4, '0')}.jpg`,
			mimeType: 'image/jpeg',
			bytes: body,
			sha256: crypto.createHash('sha256').update(body).digest('hex'),
		};
	});
	const byId = new Map(all.map((file) => [file.id, file]));
	let shown = files;
	const counts = { downloads: 0, bytesSent: 0, listings: 0 };

	const server = http.createServer((req, res) => {
		const timer = setTimeout(() => answer(req, res), latencyMs);
		res.once('close', () => clearTimeout(timer));
	});
	/** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
	function answer(req, res) {
		const url = new URL(req.url ?? '/', 'http://drive');
		if (req.method === 'GET' && url.pathname === '/drive/v3/files') {
			counts.listings++;
			const listing = all.slice(0, shown).map(({ id, name, mimeType }) => ({ id, name, mimeType }));
			const body = JSON.stringify({ files: listing });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(body);
			return;
		}
		const file = url.pathname.startsWith('/drive/v3/files/')
			? byId.get(decodeURIComponent(url.pathname.slice('/drive/v3/files/'.length)))
			: undefined;
		if (req.method === 'GET' && file && url.searchParams.get('alt') === 'media') {
			counts.downloads++;
			counts.bytesSent += file.bytes.length;
			res.writeHead(200, {
				'Content-Type': file.mimeType,
				'Content-Length': String(file.bytes.length),
				'Content-Disposition': `attachment; filename="${file.name}"`,
			});
			res.end(file.bytes);
			return;
		}
		res.writeHead(404, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ error: { code: 404, message: 'File not found' } }));
	}
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		listUrl: `${url}/drive/v3/files`,
		files: all,
		show: (count) => {
			shown = Math.max(0, Math.min(files, count));
		},
		counts: () => ({ ...counts }),
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve(undefined));
				server.closeAllConnections();
			}),
	};
}

module.exports = { startDrive };
