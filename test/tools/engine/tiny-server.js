// @ts-check
'use strict';

/**
 * A small recording HTTP server on 127.0.0.1 for the harness's own tests and self-check.
 * Every request is kept with its raw headers and full body; `handler` decides the answer.
 */

const http = require('node:http');

/**
 * @typedef {{ method: string, url: string, headers: http.IncomingHttpHeaders, body: Buffer }} RecordedRequest
 * @typedef {(req: RecordedRequest) => { status?: number, headers?: Record<string, string>, json?: unknown, body?: string }} Handler
 */

/**
 * @param {Handler} handler
 * @returns {Promise<{ url: string, requests: RecordedRequest[], close: () => Promise<void> }>}
 */
async function startTinyServer(handler) {
	/** @type {RecordedRequest[]} */
	const requests = [];
	const server = http.createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			requests.push(recorded);
			const answer = handler(recorded);
			const headers = { ...answer.headers };
			let body = answer.body ?? '';
			if (answer.json !== undefined) {
				headers['content-type'] = 'application/json';
				body = JSON.stringify(answer.json);
			}
			res.writeHead(answer.status ?? 200, headers);
			res.end(body);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}`,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startTinyServer };
