// @ts-check
'use strict';

/** Small HTTP helpers shared by the service and the storage server. */

/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

/** @param {number} ms */
function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * @param {Res} res
 * @param {number} status
 * @param {unknown} value
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, value, headers = {}) {
	const body = Buffer.from(JSON.stringify(value), 'utf8');
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(body.length),
		'Cache-Control': 'no-store',
		...headers,
	});
	res.end(body);
}

/**
 * The API doc's Error object: `{ code, message, details }`.
 * @param {Res} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {unknown} [details]
 * @param {Record<string, string>} [headers]
 */
function sendError(res, status, code, message, details = null, headers) {
	sendJson(res, status, { code, message, details }, headers);
}

/**
 * A response with a plain (possibly empty) body.
 * @param {Res} res
 * @param {number} status
 * @param {string} body
 * @param {Record<string, string>} [headers]
 */
function sendText(res, status, body, headers = {}) {
	const buf = Buffer.from(body, 'utf8');
	/** @type {Record<string, string>} */
	const h = { 'Content-Length': String(buf.length), 'Cache-Control': 'no-store', ...headers };
	if (buf.length > 0 && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type'))
		h['Content-Type'] = 'text/plain; charset=utf-8';
	res.writeHead(status, h);
	res.end(buf);
}

/** @param {string} s */
function escapeXml(s) {
	return s.replace(
		/[<>&"']/g,
		(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
	);
}

/**
 * An S3-style XML error document.
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [extra]
 * @param {string} [requestId]
 */
function s3ErrorXml(code, message, extra = {}, requestId = '') {
	const more = Object.entries(extra)
		.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
		.join('');
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		`<Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message>${more}` +
		`<RequestId>${escapeXml(requestId)}</RequestId></Error>`
	);
}

/**
 * Read a request body up to `limit` bytes. Resolves `undefined` when it is larger (the rest is drained).
 * @param {Req} req
 * @param {number} limit
 * @returns {Promise<Buffer | undefined>}
 */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (/** @type {Buffer} */ c) => {
			size += c.length;
			if (size > limit) tooLarge = true;
			if (!tooLarge) chunks.push(c);
		});
		req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
		req.on('error', reject);
		req.on('aborted', () => reject(new Error('aborted')));
	});
}

/**
 * Read and discard the request body, up to `limit` bytes. Resolves true when the whole body was read.
 * @param {Req} req
 * @param {number} limit
 * @returns {Promise<boolean>}
 */
function drain(req, limit) {
	return new Promise((resolve) => {
		if (req.readableEnded || req.complete) return resolve(true);
		let size = 0;
		const done = (/** @type {boolean} */ ok) => {
			req.removeListener('data', onData);
			resolve(ok);
		};
		const onData = (/** @type {Buffer} */ c) => {
			size += c.length;
			if (size > limit) {
				req.pause();
				done(false);
			}
		};
		req.on('data', onData);
		req.once('end', () => done(true));
		req.once('error', () => done(false));
		req.once('close', () => done(req.complete));
	});
}

/**
 * True when the request's connection is gone (destroyed, or already detached from the request).
 * @param {Req} req
 */
function gone(req) {
	return !req.socket || req.socket.destroyed;
}

/**
 * Destroy the request's connection at once (a "connection reset" for the client).
 * @param {Req} req
 */
function cut(req) {
	if (req.socket) req.socket.destroy();
	req.destroy();
}

module.exports = {
	gone,
	cut,
	sleep,
	sendJson,
	sendError,
	sendText,
	s3ErrorXml,
	escapeXml,
	readBody,
	drain,
};
