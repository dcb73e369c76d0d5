// @ts-check
'use strict';

const { FaultSet, RateLimiter, retryAfterOf } = require('./faults');
const { sleep, sendError, sendText, s3ErrorXml, drain, gone, cut } = require('./http-util');
const { sendRedirect, sendDrip, sendEndless, sendHuge } = require('./hostile');
const { silence, stallMidAnswer } = require('./network');

/**
 * @typedef {object} EmulatorOptions
 * @property {number} urlTtlSeconds validity of an upload address (default 300)
 * @property {number} latencyMs added to every request of both endpoints and the PUT (default 0)
 * @property {number} rateLimitPerSecond requests per second across both endpoints and the PUT; 0 = none (default 0)
 * @property {number} apiRateLimitPerSecond requests per second across the two service endpoints only (an API gateway's limit; the storage is not limited); 0 = none (default 0)
 * @property {number} fixedRateWindow 1 = both rate limits count in fixed one-second windows, each opened by the first request after the last one closed (as many API gateways count); 0 = a sliding window (default 0)
 * @property {number} maxUploadBytes largest accepted PUT body (default 5 GiB, S3's single-PUT limit)
 * @property {number} bodyIdleTimeoutMs a PUT whose body stalls this long is refused with 400 RequestTimeout (default 20000)
 * @property {number} drainLimitBytes a refused request body up to this size is read before answering; larger ones get the answer and the connection closes (default 64 MiB)
 * @property {number} storageReadBytesPerSecond the storage reads PUT bodies at this rate, all PUTs at once sharing it like one uplink; 0 = as fast as they come (default 0)
 * @property {number} downloadBytesPerSecond downloads (`GET /downloads/<name>`) are sent at this rate, shared by all at once; 0 = as fast as the client reads (default 0)
 */

/**
 * @typedef {object} StoredUpload
 * @property {string} id upload id (also the stored file's name in storageDir)
 * @property {string} key object key: the raw path of the upload address
 * @property {string} linkId
 * @property {string | null} albumId
 * @property {string} fileName
 * @property {string} contentType
 * @property {number} size
 * @property {string} sha256 hex
 * @property {string} md5 hex
 * @property {string} etag quoted md5, as sent in the ETag header
 * @property {number | null} takenAt
 * @property {string} path absolute path of the stored bytes
 * @property {string} uploadedAt ISO time
 */

/**
 * @typedef {object} RequestLogEntry
 * @property {'api'|'storage'} server
 * @property {string} method
 * @property {string} url
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {number} status 0 while pending or when no response was sent (socket destroyed)
 * @property {number} startedAt performance.now() when the request arrived
 * @property {number | undefined} endedAt performance.now() when its response closed (undefined while open)
 */

/**
 * @typedef {object} State
 * @property {EmulatorOptions} options
 * @property {FaultSet} faults
 * @property {RateLimiter} limiter
 * @property {RateLimiter} apiLimiter the window of apiRateLimitPerSecond
 * @property {string} secret HMAC key of the upload addresses
 * @property {string} baseUrl
 * @property {string} storageUrl
 * @property {string} elsewhereUrl the recording listener that redirect faults point to
 * @property {string} storageDir
 * @property {StoredUpload[]} uploads
 * @property {RequestLogEntry[]} requests
 * @property {import('./seed').SeedAccount[]} accounts
 * @property {Map<string, import('./network').HostedFile>} downloads files served at `GET /downloads/<name>`
 * @property {import('./network').Link} putLink the link all PUT bodies share (storageReadBytesPerSecond)
 * @property {import('./network').Link} downloadLink the link all downloads share (downloadBytesPerSecond)
 * @property {Set<import('node:http').IncomingMessage>} held requests a stall fault holds (ended by reset and close)
 */

/** @type {EmulatorOptions} */
const DEFAULT_OPTIONS = {
	urlTtlSeconds: 300,
	latencyMs: 0,
	rateLimitPerSecond: 0,
	apiRateLimitPerSecond: 0,
	fixedRateWindow: 0,
	maxUploadBytes: 5 * 1024 ** 3,
	bodyIdleTimeoutMs: 20000,
	drainLimitBytes: 64 * 1024 ** 2,
	storageReadBytesPerSecond: 0,
	downloadBytesPerSecond: 0,
};

/**
 * Validate and merge option changes.
 * @param {EmulatorOptions} target
 * @param {Record<string, unknown>} changes
 */
function applyOptions(target, changes) {
	for (const [k, v] of Object.entries(changes)) {
		if (k === 'seed') continue;
		if (!(k in DEFAULT_OPTIONS)) throw new TypeError(`Unknown emulator option: ${k}`);
		if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
			throw new TypeError(`Option ${k} must be a number >= 0`);
		if (k === 'urlTtlSeconds' && v <= 0) throw new TypeError('urlTtlSeconds must be > 0');
		/** @type {Record<string, number>} */ (/** @type {unknown} */ (target))[k] = v;
	}
}

/**
 * Send an error the way the given server does: the service's Error object (400/401/403/404) or an
 * empty body (429/5xx, the doc describes none); the storage's S3-style XML.
 * @param {'api'|'storage'} server
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {{ retryAfter?: string, body?: string }} [o]
 */
function sendFault(server, res, status, o = {}) {
	/** @type {Record<string, string>} */
	const headers = o.retryAfter !== undefined ? { 'Retry-After': o.retryAfter } : {};
	if (o.body !== undefined) return sendText(res, status, o.body, headers);
	if (server === 'storage') {
		const [code, message] = S3_STATUS[status] ?? ['InternalError', `Injected status ${status}`];
		return sendText(res, status, s3ErrorXml(code, message), {
			...headers,
			'Content-Type': 'application/xml',
		});
	}
	if (status === 400 || status === 401 || status === 403 || status === 404) {
		return sendError(res, status, 'INJECTED_FAULT', `Injected status ${status}`, null, headers);
	}
	return sendText(res, status, '', headers);
}

/** @type {Record<number, [string, string]>} */
const S3_STATUS = {
	400: ['BadRequest', 'Bad Request'],
	403: ['AccessDenied', 'Access Denied'],
	404: ['NoSuchKey', 'The specified key does not exist.'],
	429: ['SlowDown', 'Please reduce your request rate.'],
	500: ['InternalError', 'We encountered an internal error. Please try again.'],
	503: ['SlowDown', 'Please reduce your request rate.'],
};

/**
 * Answer after reading the body (so the client sees the answer, not a broken pipe); when the body is
 * larger than the drain limit, answer at once and close the connection.
 * @param {State} state
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {() => void} answer
 */
async function answerAfterBody(state, req, res, answer) {
	const whole = await drain(req, state.options.drainLimitBytes);
	if (res.destroyed || gone(req)) return;
	if (!whole) res.shouldKeepAlive = false;
	answer();
}

/**
 * The common front of both endpoints, the PUT and downloads: added latency and the rate limit (not on
 * downloads, which stand for any web server), then the fault rules.
 * Returns handled=true when it already answered (or reset the connection); otherwise the rule that the
 * endpoint itself must apply, if any.
 * @param {State} state
 * @param {'geteventsandalbums'|'getuploadurl'|'put'|'download'} endpoint
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @returns {Promise<{ handled: boolean, rule?: import('./faults').FaultRule }>}
 */
async function gate(state, endpoint, req, res) {
	const server = endpoint === 'put' || endpoint === 'download' ? 'storage' : 'api';
	if (endpoint !== 'download') {
		if (state.options.latencyMs > 0) await sleep(state.options.latencyMs);
		const { apiRateLimitPerSecond, rateLimitPerSecond, fixedRateWindow } = state.options;
		const now = Date.now();
		const fixed = fixedRateWindow > 0;
		const apiLimited = endpoint !== 'put' && state.apiLimiter.over(apiRateLimitPerSecond, now, fixed);
		if (apiLimited || state.limiter.over(rateLimitPerSecond, now, fixed)) {
			await answerAfterBody(state, req, res, () => sendFault(server, res, 429, { retryAfter: '1' }));
			return { handled: true };
		}
	}
	const rule = state.faults.take(endpoint);
	if (!rule) return { handled: false };
	switch (rule.kind) {
		case 'delay':
			if (endpoint === 'put' && rule.when === 'after') return { handled: false, rule };
			await sleep(rule.ms ?? 0);
			return { handled: false };
		case 'stall':
			if (endpoint === 'put') return { handled: false, rule };
			if (rule.afterBytes === undefined) {
				await silence(state, req);
				return { handled: true };
			}
			if (endpoint === 'download') return { handled: false, rule };
			await stallMidAnswer(state, req, res, rule.afterBytes);
			return { handled: true };
		case 'reset':
			if (endpoint === 'put') return { handled: false, rule };
			cut(req);
			return { handled: true };
		case 'status':
			await answerAfterBody(state, req, res, () =>
				sendFault(server, res, /** @type {number} */ (rule.status), {
					retryAfter: retryAfterOf(rule),
					body: rule.body,
				}),
			);
			return { handled: true };
		case 'badJson':
			await answerAfterBody(state, req, res, () =>
				sendText(
					res,
					200,
					rule.body ??
						'<!DOCTYPE html><html><body><h1>Service temporarily unavailable</h1></body></html>',
					{
						'Content-Type': rule.contentType ?? 'application/json',
					},
				),
			);
			return { handled: true };
		case 'redirect':
			await answerAfterBody(state, req, res, () =>
				sendRedirect(res, req, rule, state.elsewhereUrl),
			);
			return { handled: true };
		case 'drip':
			await answerAfterBody(state, req, res, () => sendDrip(res, rule));
			return { handled: true };
		case 'endless':
			await answerAfterBody(state, req, res, () => sendEndless(res, rule));
			return { handled: true };
		case 'huge':
			await answerAfterBody(state, req, res, () => sendHuge(res, rule, state.storageUrl));
			return { handled: true };
		default:
			return { handled: false, rule };
	}
}

/**
 * @param {Partial<EmulatorOptions>} options
 * @returns {EmulatorOptions}
 */
function makeOptions(options) {
	const o = { ...DEFAULT_OPTIONS };
	applyOptions(o, /** @type {Record<string, unknown>} */ (options));
	return o;
}

module.exports = {
	gate,
	sendFault,
	answerAfterBody,
	applyOptions,
	makeOptions,
	DEFAULT_OPTIONS,
	FaultSet,
	RateLimiter,
};
