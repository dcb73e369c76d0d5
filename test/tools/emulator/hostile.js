// @ts-check
'use strict';

const http = require('node:http');

/**
 * Hostile answers of the service endpoints, for the security tests: redirects to another host,
 * answers that drip one byte at a time, bodies that never end, huge answers. And "elsewhere": a
 * second loopback listener that a redirect points to and that records everything it receives, so a
 * test can prove the API key never reached it.
 */

/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */

/**
 * @typedef {object} ElsewhereRequest
 * @property {string} method
 * @property {string} url
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body the first MiB of the body, as UTF-8
 */

/**
 * Starts the recording listener on 127.0.0.1. It answers every request like a service that accepted
 * it (200 with an empty events list and an upload address that leads nowhere), so a client that
 * followed a redirect there would believe it succeeded.
 * @returns {Promise<{ url: string, requests: ElsewhereRequest[], close: () => Promise<void> }>}
 */
async function startElsewhere() {
	/** @type {ElsewhereRequest[]} */
	const requests = [];
	const server = http.createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			if (size < 1024 * 1024) chunks.push(chunk);
			size += chunk.length;
		});
		req.on('end', () => {
			requests.push({
				method: req.method ?? '',
				url: req.url ?? '',
				headers: { ...req.headers },
				body: Buffer.concat(chunks).toString('utf8'),
			});
			const body = JSON.stringify({ events: [], uploadUrl: 'http://127.0.0.1:9/nowhere' });
			res.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': String(Buffer.byteLength(body)),
			});
			res.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve(undefined));
				server.closeAllConnections();
			}),
	};
}

/**
 * A redirect: `status` (301/302/303/307/308) with Location `rule.location`, or the same path on the
 * recording listener.
 * @param {Res} res
 * @param {Req} req
 * @param {import('./faults').FaultRule} rule
 * @param {string} elsewhereUrl
 */
function sendRedirect(res, req, rule, elsewhereUrl) {
	const location = rule.location ?? `${elsewhereUrl}${req.url ?? '/'}`;
	res.writeHead(rule.status ?? 302, { Location: location, 'Content-Length': '0' });
	res.end();
}

/**
 * Writes `next()` chunks as fast as the client reads them, until `next` returns undefined or the
 * client goes away.
 * @param {Res} res
 * @param {() => Buffer | undefined} next
 */
function pump(res, next) {
	const write = () => {
		while (!res.destroyed) {
			const chunk = next();
			if (chunk === undefined) {
				res.end();
				return;
			}
			if (!res.write(chunk)) {
				res.once('drain', write);
				return;
			}
		}
	};
	res.on('error', () => undefined);
	write();
}

/** The start of a download's endless or dripping body: a JPEG's first bytes, so that it is judged by its size and pace. */
const PHOTO_START = Buffer.concat([
	Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
	Buffer.alloc(64 * 1024, 0xab),
]);

/**
 * Headers at once, then one byte every `rule.ms` milliseconds, for ever (until the client leaves).
 * @param {Res} res
 * @param {import('./faults').FaultRule} rule
 */
function sendDrip(res, rule) {
	res.writeHead(rule.status ?? 200, { 'Content-Type': rule.contentType ?? 'application/json' });
	const body =
		rule.endpoint === 'download' ? PHOTO_START : Buffer.from('{"events":[' + ' '.repeat(1e6));
	let index = 0;
	const byte = () => body.subarray(index % body.length, (index++ % body.length) + 1);
	res.write(byte());
	const timer = setInterval(() => {
		if (res.destroyed) return clearInterval(timer);
		res.write(byte());
	}, rule.ms ?? 1000);
	res.on('close', () => clearInterval(timer));
}

/**
 * A body that never ends, sent as fast as the client reads it.
 * @param {Res} res
 * @param {import('./faults').FaultRule} rule
 */
function sendEndless(res, rule) {
	res.writeHead(rule.status ?? 200, { 'Content-Type': rule.contentType ?? 'application/json' });
	const block = Buffer.alloc(64 * 1024, rule.endpoint === 'download' ? 0xab : 0x20);
	let first = true;
	pump(res, () => {
		if (!first) return block;
		first = false;
		return rule.endpoint === 'download' ? PHOTO_START : Buffer.from('{"events":[');
	});
}

/**
 * A JSON answer of `rule.bytes` bytes (with Content-Length): on status 200 an upload address plus a
 * huge `padding` field; on any other status an Error object with a huge `message`.
 * @param {Res} res
 * @param {import('./faults').FaultRule} rule
 * @param {string} storageUrl
 */
function sendHuge(res, rule, storageUrl) {
	const status = rule.status ?? 200;
	const total = rule.bytes ?? 100 * 1024 * 1024;
	const head = Buffer.from(
		status === 200
			? `{"uploadUrl":"${storageUrl}/eventpics-uploads/huge","events":[],"padding":"`
			: '{"code":"HUGE","details":null,"message":"',
	);
	const tail = Buffer.from('"}');
	const block = Buffer.alloc(64 * 1024, 0x78);
	let left = Math.max(0, total - head.length - tail.length);
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': String(head.length + left + tail.length),
	});
	let stage = 0;
	pump(res, () => {
		if (stage === 0) return ((stage = 1), head);
		if (left > 0) {
			const chunk = left >= block.length ? block : block.subarray(0, left);
			left -= chunk.length;
			return chunk;
		}
		if (stage === 1) return ((stage = 2), tail);
		return undefined;
	});
}

module.exports = { startElsewhere, sendRedirect, sendDrip, sendEndless, sendHuge };
