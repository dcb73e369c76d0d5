// @ts-check
'use strict';

const crypto = require('node:crypto');

/**
 * Pre-signed upload addresses, in the spirit of S3 query-string authentication.
 *
 * The address is `<storage>/<bucket>/<linkId>/<uploadId>/<fileName>?X-EP-...` where the query carries
 * the algorithm, issue time (ms), validity (s), the upload's metadata and the signature.
 * The signature is an HMAC-SHA256 over the method, the raw (percent-encoded) path, the canonical
 * query (every parameter but the signature, sorted, as sent) and the Content-Type.
 * Any change to the address (re-encoding, added or dropped parameters), to the method or to the
 * Content-Type therefore fails, as it would in production.
 */

const BUCKET = 'eventpics-uploads';
const ALGORITHM = 'EP-HMAC-SHA256';
const P = {
	algorithm: 'X-EP-Algorithm',
	date: 'X-EP-Date',
	expires: 'X-EP-Expires',
	meta: 'X-EP-Meta',
	signedHeaders: 'X-EP-SignedHeaders',
	signature: 'X-EP-Signature',
};

/** @typedef {{ linkId: string, albumId: string | null, fileName: string, takenAt: number | null, contentType: string }} UploadMeta */

/**
 * RFC 3986 encoding of one path segment or query value (as S3 does: `!'()*` encoded too).
 * @param {string} s
 */
function encodeStrict(s) {
	return encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
	);
}

/**
 * @param {string} method
 * @param {string} rawPath
 * @param {string} canonicalQuery
 * @param {string} contentType
 */
function stringToSign(method, rawPath, canonicalQuery, contentType) {
	return [ALGORITHM, method, rawPath, canonicalQuery, 'content-type:' + contentType].join('\n');
}

/**
 * @param {string} secret
 * @param {string} text
 */
function hmac(secret, text) {
	return crypto.createHmac('sha256', secret).update(text).digest('hex');
}

/** @param {[string, string][]} pairs raw key/value pairs */
function canonical(pairs) {
	return pairs
		.filter(([k]) => k !== P.signature)
		.map(([k, v]) => k + '=' + v)
		.sort()
		.join('&');
}

/**
 * Build a signed upload address.
 * @param {{ storageUrl: string, secret: string, uploadId: string, meta: UploadMeta, ttlSeconds: number, now?: number }} o
 * @returns {string}
 */
function signUploadUrl(o) {
	const rawPath =
		'/' +
		[BUCKET, encodeStrict(o.meta.linkId), o.uploadId, encodeStrict(o.meta.fileName)].join('/');
	const meta = Buffer.from(JSON.stringify(o.meta), 'utf8').toString('base64url');
	/** @type {[string, string][]} */
	const pairs = [
		[P.algorithm, ALGORITHM],
		[P.date, String(o.now ?? Date.now())],
		[P.expires, String(o.ttlSeconds)],
		[P.meta, meta],
		[P.signedHeaders, 'content-type'],
	];
	const signature = hmac(
		o.secret,
		stringToSign('PUT', rawPath, canonical(pairs), o.meta.contentType),
	);
	const query = pairs.map(([k, v]) => k + '=' + encodeStrict(v)).join('&');
	return o.storageUrl + rawPath + '?' + query + '&' + P.signature + '=' + signature;
}

/**
 * @typedef {{ ok: true, uploadId: string, meta: UploadMeta }
 *   | { ok: false, status: number, code: string, message: string, extra?: Record<string, string> }} VerifyResult
 */

/**
 * Check a request against its pre-signed address. The order follows S3: malformed authentication
 * parameters, then expiry, then the signature.
 * @param {{ secret: string, method: string, rawUrl: string, contentType: string | undefined, now?: number }} o
 * @returns {VerifyResult}
 */
function verifyRequest(o) {
	const q = o.rawUrl.indexOf('?');
	const rawPath = q === -1 ? o.rawUrl : o.rawUrl.slice(0, q);
	const rawQuery = q === -1 ? '' : o.rawUrl.slice(q + 1);
	/** @type {[string, string][]} */
	const pairs =
		rawQuery === ''
			? []
			: rawQuery.split('&').map((p) => {
					const i = p.indexOf('=');
					return /** @type {[string, string]} */ (
						i === -1 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)]
					);
				});
	/** @type {Map<string, string>} */
	const values = new Map();
	for (const [k, v] of pairs) {
		if (values.has(k)) return authParamError(`Query parameter ${k} is given more than once.`);
		try {
			values.set(k, decodeURIComponent(v));
		} catch {
			return authParamError(`Query parameter ${k} is not correctly percent-encoded.`);
		}
	}
	const missing = Object.values(P).filter((k) => !values.has(k));
	if (missing.length > 0) {
		return authParamError(
			`Query-string authentication requires the parameters ${missing.join(', ')}.`,
		);
	}
	if (values.get(P.algorithm) !== ALGORITHM)
		return authParamError(`${P.algorithm} only supports "${ALGORITHM}".`);
	const date = Number(values.get(P.date));
	const expires = Number(values.get(P.expires));
	if (!Number.isFinite(date) || !Number.isFinite(expires) || expires <= 0) {
		return authParamError(`${P.date} and ${P.expires} must be numbers.`);
	}
	const now = o.now ?? Date.now();
	if (now > date + expires * 1000) {
		return {
			ok: false,
			status: 403,
			code: 'AccessDenied',
			message: 'Request has expired',
			extra: {
				Expires: new Date(date + expires * 1000).toISOString(),
				ServerTime: new Date(now).toISOString(),
			},
		};
	}
	const contentType = (o.contentType ?? '').trim();
	const toSign = stringToSign(o.method, rawPath, canonical(pairs), contentType);
	const expected = Buffer.from(hmac(o.secret, toSign), 'hex');
	const given = Buffer.from(String(values.get(P.signature)), 'hex');
	/** @type {UploadMeta | undefined} */
	let meta;
	try {
		meta = JSON.parse(Buffer.from(String(values.get(P.meta)), 'base64url').toString('utf8'));
	} catch {
		meta = undefined;
	}
	if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected) || !meta) {
		/** @type {Record<string, string>} */
		const extra = { StringToSign: toSign };
		if (meta && meta.contentType !== contentType) {
			extra.Hint = `The address was signed for Content-Type "${meta.contentType}"; the request sent ${
				o.contentType === undefined ? 'no Content-Type' : `"${contentType}"`
			}.`;
		}
		return {
			ok: false,
			status: 403,
			code: 'SignatureDoesNotMatch',
			message:
				'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
			extra,
		};
	}
	const segments = rawPath.split('/');
	return { ok: true, uploadId: segments[3], meta };
}

/** @param {string} message @returns {VerifyResult} */
function authParamError(message) {
	return { ok: false, status: 400, code: 'AuthorizationQueryParametersError', message };
}

module.exports = { signUploadUrl, verifyRequest, encodeStrict, BUCKET, QUERY_PARAMS: P };
