// @ts-check
'use strict';

const crypto = require('node:crypto');
const mime = require('mime-types');
const { albumIdOf } = require('./seed');
const { signUploadUrl } = require('./signing');
const { gate, answerAfterBody } = require('./state');
const { sendJson, sendError, sendText, readBody } = require('./http-util');

/** The two service endpoints: GET /geteventsandalbums and POST /getuploadurl. */

/** @typedef {import('./state').State} State */
/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

const MAX_JSON_BODY = 1024 * 1024;

/**
 * The key from `Authorization: Bearer <key>` (preferred) or `X-API-Key: <key>`.
 * @param {Req} req
 * @returns {{ key?: string, problem?: string }}
 */
function keyFromHeaders(req) {
	const auth = req.headers.authorization;
	if (auth !== undefined) {
		const m = /^Bearer +(\S+) *$/i.exec(auth);
		return m ? { key: m[1] } : { problem: 'The Authorization header must be "Bearer <API key>".' };
	}
	const x = req.headers['x-api-key'];
	if (typeof x === 'string' && x !== '') return { key: x };
	return {
		problem: 'Missing API key: send "Authorization: Bearer <API key>" or "X-API-Key: <API key>".',
	};
}

/**
 * @param {State} state
 * @param {unknown} key
 */
function accountOf(state, key) {
	return typeof key === 'string' ? state.accounts.find((a) => a.apiKey === key) : undefined;
}

/**
 * @param {Res} res
 * @param {string} allow
 */
function methodNotAllowed(res, allow) {
	sendError(res, 405, 'METHOD_NOT_ALLOWED', `Use ${allow} on this endpoint.`, null, {
		Allow: allow,
	});
}

/**
 * GET /geteventsandalbums
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 */
async function listEvents(state, req, res) {
	if (req.method !== 'GET')
		return answerAfterBody(state, req, res, () => methodNotAllowed(res, 'GET'));
	if ((await gate(state, 'geteventsandalbums', req, res)).handled) return;
	const { key, problem } = keyFromHeaders(req);
	if (problem) return sendError(res, 401, 'UNAUTHORIZED', problem);
	const account = accountOf(state, key);
	if (!account) return sendError(res, 401, 'UNAUTHORIZED', 'Invalid API key.');
	sendJson(res, 200, { events: JSON.parse(JSON.stringify(account.events)) });
}

/**
 * @param {Record<string, unknown>} body
 * @param {string} field
 * @returns {{ status: 400, code: string, message: string } | undefined}
 */
function requireString(body, field) {
	const v = body[field];
	if (v === undefined || v === null)
		return { status: 400, code: 'MISSING_FIELD', message: `${field} is required.` };
	if (typeof v !== 'string' || v === '')
		return { status: 400, code: 'INVALID_FIELD', message: `${field} must be a non-empty string.` };
	return undefined;
}

/**
 * Validate a getuploadurl body. Returns the problem, or the resolved upload metadata.
 * @param {State} state
 * @param {unknown} body
 */
function validateUploadRequest(state, body) {
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		return {
			problem: {
				status: 400,
				code: 'INVALID_BODY',
				message: 'The request body must be a JSON object.',
			},
		};
	}
	const b = /** @type {Record<string, unknown>} */ (body);
	if (b.apiKey === undefined || b.apiKey === null || b.apiKey === '') {
		return {
			problem: {
				status: 401,
				code: 'UNAUTHORIZED',
				message: 'Missing API key: send it as "apiKey" in the JSON body.',
			},
		};
	}
	const account = accountOf(state, b.apiKey);
	if (!account)
		return { problem: { status: 401, code: 'UNAUTHORIZED', message: 'Invalid API key.' } };
	const missing = requireString(b, 'linkId') ?? requireString(b, 'fileName');
	if (missing) return { problem: missing };
	if ('takenAt' in b && !Number.isSafeInteger(b.takenAt)) {
		return {
			problem: {
				status: 400,
				code: 'INVALID_FIELD',
				message: 'takenAt must be an integer (Unix time in milliseconds).',
			},
		};
	}
	if ('albumId' in b && (typeof b.albumId !== 'string' || b.albumId === '')) {
		return {
			problem: {
				status: 400,
				code: 'INVALID_FIELD',
				message: 'albumId must be a non-empty string.',
			},
		};
	}
	const linkId = /** @type {string} */ (b.linkId);
	const event = account.events.find((e) => e.linkId === linkId);
	if (!event) {
		return {
			problem: {
				status: 400,
				code: 'UNKNOWN_EVENT',
				message: `No event with linkId "${linkId}" for this API key.`,
			},
		};
	}
	const albumId = 'albumId' in b ? /** @type {string} */ (b.albumId) : null;
	if (albumId !== null && !(event.albums ?? []).some((a) => albumIdOf(a) === albumId)) {
		return {
			problem: {
				status: 400,
				code: 'UNKNOWN_ALBUM',
				message: `Event "${linkId}" has no album "${albumId}".`,
			},
		};
	}
	const fileName = /** @type {string} */ (b.fileName);
	return {
		meta: {
			linkId,
			albumId,
			fileName,
			takenAt: 'takenAt' in b ? /** @type {number} */ (b.takenAt) : null,
			contentType: mime.lookup(fileName) || 'application/octet-stream',
		},
	};
}

/**
 * POST /getuploadurl
 * @param {State} state
 * @param {Req} req
 * @param {Res} res
 */
async function getUploadUrl(state, req, res) {
	if (req.method !== 'POST')
		return answerAfterBody(state, req, res, () => methodNotAllowed(res, 'POST'));
	const { handled, rule } = await gate(state, 'getuploadurl', req, res);
	if (handled) return;
	const [type, ...params] = String(req.headers['content-type'] ?? '')
		.split(';')
		.map((s) => s.trim().toLowerCase());
	const charsetOk = params.every(
		(p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"',
	);
	if (type !== 'application/json' || !charsetOk) {
		return answerAfterBody(state, req, res, () =>
			sendError(
				res,
				400,
				'UNSUPPORTED_CONTENT_TYPE',
				'The request body must be JSON sent with "Content-Type: application/json".',
			),
		);
	}
	/** @type {Buffer | undefined} */
	let raw;
	try {
		raw = await readBody(req, MAX_JSON_BODY);
	} catch {
		return;
	}
	if (raw === undefined)
		return sendError(res, 400, 'BODY_TOO_LARGE', 'The request body is larger than 1 MiB.');
	/** @type {unknown} */
	let body;
	try {
		body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
	} catch {
		return sendError(res, 400, 'INVALID_JSON', 'The request body is not valid JSON.');
	}
	const { problem, meta } = validateUploadRequest(state, body);
	if (problem) return sendError(res, problem.status, problem.code, problem.message);
	if (!meta) return sendError(res, 500, 'INTERNAL', 'unreachable');
	if (rule?.kind === 'noUploadUrl')
		return sendJson(res, 200, 'value' in rule ? { uploadUrl: rule.value } : {});
	const ttl = state.options.urlTtlSeconds;
	let uploadUrl = signUploadUrl({
		storageUrl: state.storageUrl,
		secret: state.secret,
		uploadId: crypto.randomBytes(12).toString('hex'),
		meta,
		ttlSeconds: ttl,
		now: rule?.kind === 'expiredUrl' ? Date.now() - ttl * 1000 - 1000 : undefined,
	});
	if (rule?.kind === 'badSignature')
		uploadUrl = uploadUrl.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
	sendJson(res, 200, { uploadUrl });
}

/**
 * @param {Res} res
 */
function notFound(res) {
	sendError(res, 404, 'NOT_FOUND', 'No such endpoint.');
}

module.exports = { listEvents, getUploadUrl, notFound, keyFromHeaders, sendText };
