// @ts-check
'use strict';

const { sleep, sendText, drain, gone } = require('./http-util');

/**
 * The network as a user meets it: a link of a fixed rate (the storage reading PUT bodies at an
 * uplink's speed, a server sending a download slowly), servers that stop sending (before the headers
 * or in the middle of a body), and files to download (`GET /downloads/<name>` on the storage server).
 */

/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

/**
 * A link of a fixed rate shared by every transfer on it (all PUT bodies share one, all downloads
 * another): each chunk takes its turn, so N transfers at once get the rate between them, as on one
 * uplink.
 */
class Link {
	constructor() {
		/** performance.now() when the link is free again */
		this.freeAt = 0;
	}

	/**
	 * Resolves once `bytes` have crossed the link at `bytesPerSecond` (at once when 0: no limit).
	 * @param {number} bytes
	 * @param {number} bytesPerSecond
	 */
	async pass(bytes, bytesPerSecond) {
		if (!bytesPerSecond) return;
		const now = performance.now();
		this.freeAt = Math.max(now, this.freeAt) + (bytes / bytesPerSecond) * 1000;
		const wait = this.freeAt - now;
		if (wait >= 1) await sleep(wait);
	}

	clear() {
		this.freeAt = 0;
	}
}

/**
 * Holds a request: resolves when its connection is gone. A stalled server waits on this and nothing
 * else: it neither answers nor reads. A server that stopped reading does not notice a client that
 * left (its socket reads nothing, so it sees no end), so `emu.reset()` and `close()` end every held
 * request (`state.held`).
 * @param {import('./state').State} state
 * @param {Req} req
 * @returns {Promise<void>}
 */
function hold(state, req) {
	return new Promise((resolve) => {
		if (gone(req)) return resolve();
		state.held.add(req);
		req.socket.once('close', () => {
			state.held.delete(req);
			resolve();
		});
	});
}

/**
 * A server that stops before its headers: it reads a small body, then sends nothing, ever (until
 * the client leaves).
 * @param {import('./state').State} state
 * @param {Req} req
 */
async function silence(state, req) {
	if (req.socket) req.socket.setTimeout(0);
	await drain(req, 1024 * 1024);
	await hold(state, req);
}

/**
 * A service answer that stops in the middle: 200 with JSON headers and the first `afterBytes` bytes of
 * an events list, then nothing more (the connection stays open until the client leaves).
 * @param {import('./state').State} state
 * @param {Req} req
 * @param {Res} res
 * @param {number} afterBytes
 */
async function stallMidAnswer(state, req, res, afterBytes) {
	await drain(req, 1024 * 1024);
	if (gone(req)) return;
	res.writeHead(200, { 'Content-Type': 'application/json' });
	const head = Buffer.from('{"events":[' + ' '.repeat(Math.max(0, afterBytes)));
	if (afterBytes > 0) res.write(head.subarray(0, afterBytes));
	res.on('error', () => undefined);
	await hold(state, req);
}

/**
 * @typedef {object} HostedFile
 * @property {Buffer} bytes
 * @property {string} contentType
 * @property {boolean} length send Content-Length (false: chunked, the size unknown to the client)
 */

/** The size of the chunks a paced download is sent in: about 16 a second, 1-64 KiB. */
function chunkSize(/** @type {number} */ bytesPerSecond) {
	if (!bytesPerSecond) return 64 * 1024;
	return Math.max(1024, Math.min(64 * 1024, Math.floor(bytesPerSecond / 16)));
}

/**
 * Writes a hosted file at the download link's rate; with a `stall` rule, stops after `afterBytes`
 * and holds the connection open without another byte.
 * @param {import('./state').State} state
 * @param {Req} req
 * @param {Res} res
 * @param {HostedFile} file
 * @param {import('./faults').FaultRule | undefined} rule
 */
async function sendHosted(state, req, res, file, rule) {
	/** @type {Record<string, string>} */
	const headers = { 'Content-Type': file.contentType, 'Cache-Control': 'no-store' };
	if (file.length) headers['Content-Length'] = String(file.bytes.length);
	res.writeHead(200, headers);
	res.on('error', () => undefined);
	if (req.method === 'HEAD') return void res.end();
	const stallAt = rule?.kind === 'stall' ? (rule.afterBytes ?? 0) : -1;
	const rate = state.options.downloadBytesPerSecond;
	const size = chunkSize(rate);
	for (let sent = 0; sent < file.bytes.length; ) {
		if (res.destroyed || gone(req)) return;
		if (stallAt >= 0 && sent >= stallAt) return await hold(state, req);
		const end = Math.min(file.bytes.length, sent + size, stallAt >= 0 ? Math.max(stallAt, sent + 1) : Infinity);
		const chunk = file.bytes.subarray(sent, end);
		await state.downloadLink.pass(chunk.length, rate);
		if (res.destroyed) return;
		sent = end;
		if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
	}
	if (stallAt >= 0) return await hold(state, req);
	res.end();
}

/**
 * GET /downloads/<name> on the storage server: a file registered with `emu.addDownload()`, served
 * at `downloadBytesPerSecond`, through the fault rules of endpoint `download` (status, reset, delay,
 * drip, endless, stall). Never rate limited: it stands for any web server, not EventPics.
 * @param {import('./state').State} state
 * @param {Req} req
 * @param {Res} res
 * @param {string} name
 */
async function handleDownload(state, req, res, name) {
	const { gate } = require('./state');
	const { handled, rule } = await gate(state, 'download', req, res);
	if (handled) return;
	const file = state.downloads.get(name);
	if (!file) return sendText(res, 404, `No download named "${name}".`);
	await sendHosted(state, req, res, file, rule);
}

module.exports = { Link, silence, stallMidAnswer, handleDownload, hold };
