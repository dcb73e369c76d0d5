// @ts-check
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { pipeline } = require('node:stream/promises');
const { verifyRequest } = require('./signing');
const { gate, answerAfterBody } = require('./state');
const { sleep, sendText, s3ErrorXml, gone, cut } = require('./http-util');
const { handleDownload, hold } = require('./network');

/**
 * The object storage: PUT <uploadUrl>. Strict like S3 with a pre-signed URL; the body is streamed
 * to a temp file and renamed into place only when everything checked out.
 */

/** @typedef {import('./state').State} State */
/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

/** Marks a socket on which the HTTP parser failed (body longer or shorter than Content-Length). */
const PARSE_FAILED = Symbol('parseFailed');

/**
 * @param {Res} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [extra]
 */
function sendS3Error(res, status, code, message, extra) {
	const requestId = crypto.randomBytes(8).toString('hex').toUpperCase();
	sendText(res, status, s3ErrorXml(code, message, extra, requestId), {
		'Content-Type': 'application/xml',
		'x-amz-request-id': requestId,
	});
}

/**
 * Refuse a request: read its body first when it is small enough, then answer.
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {Record<string, string>} [extra]
 */
function refuse(state, req, res, status, code, message, extra) {
	return answerAfterBody(state, req, res, () => sendS3Error(res, status, code, message, extra));
}

/**
 * Answer to a parse failure on the storage socket (the server's 'clientError'): a body shorter than
 * Content-Length followed by end of input, or bytes beyond Content-Length.
 * @param {Error & { code?: string }} err
 * @param {import('node:stream').Duplex} socket
 */
function onClientError(err, socket) {
	/** @type {any} */ (socket)[PARSE_FAILED] = true;
	if (socket.writable && !(/** @type {any} */ (socket)._httpMessage?.headersSent)) {
		const incomplete = err.code === 'HPE_INVALID_EOF_STATE';
		const body = incomplete
			? s3ErrorXml(
					'IncompleteBody',
					'You did not provide the number of bytes specified by the Content-Length HTTP header.',
				)
			: s3ErrorXml(
					'BadRequest',
					`The request could not be parsed (${err.code ?? 'parse error'}); bytes beyond Content-Length are refused.`,
				);
		socket.end(
			'HTTP/1.1 400 Bad Request\r\nContent-Type: application/xml\r\nConnection: close\r\n' +
				`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
		);
	}
	setTimeout(() => socket.destroy(), 50).unref();
}

/**
 * PUT <uploadUrl>
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 */
async function handlePut(state, req, res) {
	const { handled, rule } = await gate(state, 'put', req, res);
	if (handled) return;
	const h = req.headers;
	if (h.authorization !== undefined || h['x-api-key'] !== undefined) {
		const which = h.authorization !== undefined ? 'Authorization' : 'X-API-Key';
		return refuse(
			state,
			req,
			res,
			400,
			'InvalidArgument',
			`Only one auth mechanism allowed; the upload address is pre-signed, so no ${which} header may be sent.`,
			{ ArgumentName: which },
		);
	}
	if (h['transfer-encoding'] !== undefined) {
		return refuse(
			state,
			req,
			res,
			501,
			'NotImplemented',
			'A header you provided implies functionality that is not implemented',
			{ Header: 'Transfer-Encoding' },
		);
	}
	const v = verifyRequest({
		secret: state.secret,
		method: req.method ?? '',
		rawUrl: req.url ?? '',
		contentType: h['content-type'],
	});
	if (!v.ok) return refuse(state, req, res, v.status, v.code, v.message, v.extra);
	if (h['content-length'] === undefined) {
		return refuse(
			state,
			req,
			res,
			411,
			'MissingContentLength',
			'You must provide the Content-Length HTTP header.',
		);
	}
	const length = Number(h['content-length']);
	if (length > state.options.maxUploadBytes) {
		return refuse(
			state,
			req,
			res,
			400,
			'EntityTooLarge',
			'Your proposed upload exceeds the maximum allowed size',
			{ ProposedSize: String(length), MaxSizeAllowed: String(state.options.maxUploadBytes) },
		);
	}
	await receive(state, req, res, v.uploadId, v.meta, length, rule);
}

/**
 * Stream the body to a temp file, hashing it; store it only if it arrived whole.
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 * @param {string} uploadId
 * @param {import('./signing').UploadMeta} meta
 * @param {number} length
 * @param {import('./faults').FaultRule | undefined} rule
 */
async function receive(state, req, res, uploadId, meta, length, rule) {
	const tmp = path.join(
		state.storageDir,
		`.incoming-${uploadId}-${crypto.randomBytes(4).toString('hex')}`,
	);
	const md5 = crypto.createHash('md5');
	const sha256 = crypto.createHash('sha256');
	let bytes = 0;
	const resetAt = rule?.kind === 'reset' ? (rule.afterBytes ?? Math.floor(length / 2)) : -1;
	// a stalled storage stops reading after afterBytes (or once it has the whole body) and never answers
	const stallAt = rule?.kind === 'stall' ? Math.min(rule.afterBytes ?? length, length) : -1;
	const rate = state.options.storageReadBytesPerSecond;
	let timedOut = false;
	req.setTimeout(state.options.bodyIdleTimeoutMs, () => {
		if (bytes === length) return;
		timedOut = true;
		const stop = () => req.destroy(new Error('body idle timeout'));
		if (!res.headersSent) {
			res.shouldKeepAlive = false;
			res.once('finish', stop);
			sendS3Error(
				res,
				400,
				'RequestTimeout',
				'Your socket connection to the server was not read from or written to within the timeout period.',
			);
		}
		setTimeout(stop, 100).unref();
	});
	try {
		if (resetAt === 0) throw destroyForFault(req);
		if (stallAt === 0) throw await stall(state, req);
		await pipeline(
			req,
			async function* hash(/** @type {AsyncIterable<Buffer>} */ source) {
				for await (const chunk of source) {
					md5.update(chunk);
					sha256.update(chunk);
					bytes += chunk.length;
					// the next chunk is read only once this one has crossed the uplink
					await state.putLink.pass(chunk.length, rate);
					yield chunk;
					if (resetAt > 0 && bytes >= resetAt) throw destroyForFault(req);
					if (stallAt > 0 && bytes >= stallAt) throw await stall(state, req);
				}
			},
			fs.createWriteStream(tmp, { flags: 'wx' }),
		);
		if (req.socket) req.setTimeout(0);
		// Let the parser report bytes beyond Content-Length before the file is kept (the socket is then
		// marked and gone; both are checked).
		await new Promise((resolve) => setImmediate(resolve));
		if (
			timedOut ||
			bytes !== length ||
			gone(req) ||
			/** @type {any} */ (req.socket)[PARSE_FAILED]
		) {
			throw new Error('incomplete upload');
		}
	} catch {
		if (req.socket) req.setTimeout(0);
		await fs.promises.rm(tmp, { force: true });
		if (!res.headersSent && !gone(req)) cut(req);
		return;
	}
	const etag = `"${md5.digest('hex')}"`;
	const stored = store(
		state,
		tmp,
		uploadId,
		meta,
		bytes,
		sha256.digest('hex'),
		etag,
		req.url ?? '',
	);
	await stored;
	if (rule?.kind === 'resetAfterStore') {
		cut(req);
		return;
	}
	if (rule?.kind === 'delay' && rule.when === 'after') await sleep(rule.ms ?? 0);
	if (gone(req)) return;
	res.writeHead(200, {
		ETag: etag,
		'Content-Length': '0',
		'x-amz-request-id': crypto.randomBytes(8).toString('hex').toUpperCase(),
	});
	res.end();
}

/**
 * A storage that stops: no more reading, no answer, no idle timeout; returns once the connection is
 * gone.
 * @param {State} state
 * @param {Req} req
 */
async function stall(state, req) {
	req.setTimeout(0);
	await hold(state, req);
	return new Error('stalled by fault rule');
}

/** @param {Req} req */
function destroyForFault(req) {
	cut(req);
	return new Error('reset by fault rule');
}

/**
 * Move the temp file into place, write its metadata beside it and record it. The same address used
 * again overwrites the same object, as with S3.
 * @param {State} state
 * @param {string} tmp
 * @param {string} uploadId
 * @param {import('./signing').UploadMeta} meta
 * @param {number} size
 * @param {string} sha256
 * @param {string} etag
 * @param {string} rawUrl
 */
async function store(state, tmp, uploadId, meta, size, sha256, etag, rawUrl) {
	const file = path.join(state.storageDir, uploadId);
	await fs.promises.rename(tmp, file);
	/** @type {import('./state').StoredUpload} */
	const record = {
		id: uploadId,
		key: rawUrl.split('?')[0],
		linkId: meta.linkId,
		albumId: meta.albumId,
		fileName: meta.fileName,
		contentType: meta.contentType,
		size,
		sha256,
		md5: etag.slice(1, -1),
		etag,
		takenAt: meta.takenAt,
		path: file,
		uploadedAt: new Date().toISOString(),
	};
	await fs.promises.writeFile(file + '.json', JSON.stringify(record, null, 2));
	const i = state.uploads.findIndex((u) => u.id === uploadId);
	if (i === -1) state.uploads.push(record);
	else state.uploads[i] = record;
}

/**
 * Every request to the storage server.
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 */
async function handleStorage(state, req, res) {
	const p = (req.url ?? '/').split('?')[0];
	if ((req.method === 'GET' || req.method === 'HEAD') && p.startsWith('/downloads/')) {
		let name = '';
		try {
			name = decodeURIComponent(p.slice('/downloads/'.length));
		} catch {
			// not an encoded name: no such download
		}
		return await handleDownload(state, req, res, name);
	}
	await handlePut(state, req, res);
}

module.exports = { handleStorage, onClientError, sendS3Error };
