// @ts-check
'use strict';

/**
 * Fault switches: rules added per test that make an endpoint misbehave, once, a few times, always or
 * at random (deterministic with a seed), plus the request-rate limiter.
 */

const ENDPOINTS = ['geteventsandalbums', 'getuploadurl', 'put', 'download', '*'];
const KINDS = [
	'status',
	'reset',
	'resetAfterStore',
	'delay',
	'badJson',
	'noUploadUrl',
	'expiredUrl',
	'badSignature',
	'redirect',
	'drip',
	'endless',
	'huge',
	'stall',
];
/** Kinds that only make sense on some endpoints. */
const ONLY_ON = /** @type {Record<string, string[]>} */ ({
	resetAfterStore: ['put'],
	badJson: ['geteventsandalbums', 'getuploadurl'],
	noUploadUrl: ['getuploadurl'],
	expiredUrl: ['getuploadurl'],
	badSignature: ['getuploadurl'],
	redirect: ['geteventsandalbums', 'getuploadurl'],
	drip: ['geteventsandalbums', 'getuploadurl', 'put', 'download'],
	endless: ['geteventsandalbums', 'getuploadurl', 'download'],
	huge: ['geteventsandalbums', 'getuploadurl', 'put'],
});
const REDIRECTS = [301, 302, 303, 307, 308];

/**
 * @typedef {object} FaultRule
 * @property {'geteventsandalbums'|'getuploadurl'|'put'|'download'|'*'} endpoint ('*': both endpoints and the PUT, not downloads)
 * @property {'status'|'reset'|'resetAfterStore'|'delay'|'badJson'|'noUploadUrl'|'expiredUrl'|'badSignature'|'redirect'|'drip'|'endless'|'huge'|'stall'} kind
 * @property {number} [times] apply this many times, then the rule vanishes
 * @property {number} [probability] apply with this probability (0..1), drawn from the seeded PRNG
 * @property {number} [status] for 'status' and 'redirect' (301/302/303/307/308); for 'drip', 'endless', 'huge' the answer's status (default 200)
 * @property {string} [location] for 'redirect': the Location (default: the same path on the recording listener `emu.elsewhereUrl`)
 * @property {number} [bytes] for 'huge': the answer's size in bytes (default 100 MiB)
 * @property {number|string} [retryAfter] for 'status': a number of seconds, or a string sent verbatim (e.g. an HTTP date)
 * @property {number} [retryAfterDateIn] for 'status': send Retry-After as an HTTP date this many seconds from now
 * @property {string} [body] for 'status' and 'badJson': the body to send instead of the default
 * @property {string} [contentType] for 'badJson': the Content-Type of that body (default application/json, a lie)
 * @property {number} [ms] for 'delay': how long to wait; for 'drip': the pause between two bytes
 * @property {'before'|'after'} [when] for 'delay' on put: before reading the request (default) or after storing the file
 * @property {number} [afterBytes] for 'reset' on put: destroy the socket after this many body bytes (default: half);
 *   for 'stall': on put, stop reading after this many body bytes (default: read it all, then never answer);
 *   on a download or a service endpoint, send the headers and this many bytes, then nothing (default: not even the headers)
 * @property {unknown} [value] for 'noUploadUrl': put this value in `uploadUrl` instead of leaving it out
 */

/**
 * @param {unknown} input
 * @returns {FaultRule}
 */
function validateRule(input) {
	if (!input || typeof input !== 'object' || Array.isArray(input))
		throw new TypeError('A fault rule must be an object');
	const r = /** @type {Record<string, any>} */ (input);
	if (!ENDPOINTS.includes(r.endpoint))
		throw new TypeError(`Fault rule endpoint must be one of ${ENDPOINTS.join(', ')}`);
	if (!KINDS.includes(r.kind))
		throw new TypeError(`Fault rule kind must be one of ${KINDS.join(', ')}`);
	const only = ONLY_ON[r.kind];
	if (only && !only.includes(r.endpoint))
		throw new TypeError(`Fault kind ${r.kind} only applies to ${only.join(', ')}`);
	if (r.times !== undefined && !(Number.isInteger(r.times) && r.times > 0))
		throw new TypeError('times must be a positive integer');
	if (
		r.probability !== undefined &&
		!(typeof r.probability === 'number' && r.probability >= 0 && r.probability <= 1)
	) {
		throw new TypeError('probability must be a number from 0 to 1');
	}
	if (r.kind === 'status' && !(Number.isInteger(r.status) && r.status >= 100 && r.status <= 599)) {
		throw new TypeError('A status fault needs an HTTP status (100..599)');
	}
	if (
		r.retryAfter !== undefined &&
		typeof r.retryAfter !== 'number' &&
		typeof r.retryAfter !== 'string'
	) {
		throw new TypeError('retryAfter must be a number of seconds or a string');
	}
	if (r.retryAfterDateIn !== undefined && typeof r.retryAfterDateIn !== 'number')
		throw new TypeError('retryAfterDateIn must be a number');
	if (r.kind === 'delay' && !(typeof r.ms === 'number' && r.ms >= 0))
		throw new TypeError('A delay fault needs ms >= 0');
	if (r.kind === 'redirect' && !REDIRECTS.includes(r.status))
		throw new TypeError(`A redirect fault needs a status of ${REDIRECTS.join(', ')}`);
	if (r.kind === 'drip' && r.ms !== undefined && !(typeof r.ms === 'number' && r.ms > 0))
		throw new TypeError('A drip fault needs ms > 0');
	if (r.bytes !== undefined && !(Number.isInteger(r.bytes) && r.bytes > 0))
		throw new TypeError('bytes must be a positive integer');
	if (r.location !== undefined && typeof r.location !== 'string')
		throw new TypeError('location must be a string');
	if (r.when !== undefined && r.when !== 'before' && r.when !== 'after')
		throw new TypeError("when must be 'before' or 'after'");
	if (r.afterBytes !== undefined && !(Number.isInteger(r.afterBytes) && r.afterBytes >= 0))
		throw new TypeError('afterBytes must be an integer >= 0');
	if (r.body !== undefined && typeof r.body !== 'string')
		throw new TypeError('body must be a string');
	if (r.contentType !== undefined && typeof r.contentType !== 'string')
		throw new TypeError('contentType must be a string');
	return /** @type {FaultRule} */ ({ ...r });
}

/**
 * Mulberry32: a small deterministic PRNG.
 * @param {number} seed
 * @returns {() => number}
 */
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

class FaultSet {
	/** @param {number} [seed] */
	constructor(seed) {
		/** @type {FaultRule[]} */
		this.rules = [];
		this.random = prng(seed ?? Date.now());
	}

	/** @param {number} seed */
	setSeed(seed) {
		this.random = prng(seed);
	}

	/** @param {unknown} rule */
	add(rule) {
		const r = validateRule(rule);
		this.rules.push(r);
		return r;
	}

	clear() {
		this.rules.length = 0;
	}

	/**
	 * The first rule that applies to this endpoint now (consuming one of its `times`), or undefined.
	 * @param {string} endpoint
	 * @returns {FaultRule | undefined}
	 */
	take(endpoint) {
		for (let i = 0; i < this.rules.length; i++) {
			const r = this.rules[i];
			if (r.endpoint !== '*' && r.endpoint !== endpoint) continue;
			if (r.endpoint === '*' && endpoint === 'download') continue;
			if (ONLY_ON[r.kind] && !ONLY_ON[r.kind].includes(endpoint)) continue;
			if (r.probability !== undefined && !(this.random() < r.probability)) continue;
			if (r.times !== undefined) {
				r.times -= 1;
				if (r.times <= 0) this.rules.splice(i, 1);
			}
			return r;
		}
		return undefined;
	}
}

/**
 * The Retry-After header value of a status rule, if any.
 * @param {FaultRule} rule
 * @returns {string | undefined}
 */
function retryAfterOf(rule) {
	if (rule.retryAfterDateIn !== undefined)
		return new Date(Date.now() + rule.retryAfterDateIn * 1000).toUTCString();
	if (rule.retryAfter === undefined) return undefined;
	return String(rule.retryAfter);
}

/**
 * A one-second window over the rate-limited requests it is given. Sliding (the default): at most N
 * requests in any second. Fixed (`fixed`): a window opens with the first request after the last one
 * closed and lets N through until it closes one second later, as many API gateways count; a client
 * may then see up to 2N within one second across a window's end.
 */
class RateLimiter {
	constructor() {
		/** @type {number[]} the let-through requests of the window, oldest first */
		this.stamps = [];
	}

	/**
	 * Count a request; true when it is over the limit (the request is then not counted).
	 * @param {number} perSecond 0 = no limit
	 * @param {number} [now]
	 * @param {boolean} [fixed] fixed windows instead of a sliding one
	 */
	over(perSecond, now = Date.now(), fixed = false) {
		if (!perSecond) return false;
		if (fixed) {
			if (this.stamps.length > 0 && this.stamps[0] <= now - 1000) this.stamps.length = 0;
		} else while (this.stamps.length > 0 && this.stamps[0] <= now - 1000) this.stamps.shift();
		if (this.stamps.length >= perSecond) return true;
		this.stamps.push(now);
		return false;
	}

	clear() {
		this.stamps.length = 0;
	}
}

module.exports = { FaultSet, RateLimiter, validateRule, retryAfterOf, prng, ENDPOINTS, KINDS };
