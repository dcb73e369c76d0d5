// @ts-check
'use strict';

const { readBody, sendJson, sendError, gone } = require('./http-util');

/**
 * The control API on the service, for other processes (the demo, a second terminal):
 *   POST /__control/faults   body: a rule, an array of rules, or { rules: [...] }   -> { faults }
 *   GET  /__control/faults   -> { faults }            DELETE /__control/faults -> clears them
 *   POST /__control/options  body: { urlTtlSeconds?, latencyMs?, rateLimitPerSecond?, seed?, ... } -> { options }
 *   GET  /__control/options  -> { options }
 *   POST /__control/reset    clears faults, uploads (and their files), the request log and the rate window
 *   GET  /__control/uploads  -> { uploads }
 *   GET  /__control/requests -> { requests } (credential headers redacted)
 *   PUT  /__control/downloads/<name>  body: the file (Content-Type kept; ?length=false: sent chunked)
 *        -> { url } of GET <storage>/downloads/<name>
 *   GET  /__control/events   -> { accounts: [{ name, events }] } (no keys)
 *   POST /__control/events   body: { linkId, title, albums?, apiKey? } -> { event } (at the end of the list)
 *   DELETE /__control/events/<linkId>[?apiKey=]                        -> { ok }
 *   POST /__control/events/<linkId>/albums   body: { id | albumId, title, apiKey? } -> { album }
 *   DELETE /__control/events/<linkId>/albums/<albumId>[?apiKey=]       -> { ok }
 * Without `apiKey` these change the demo key's account.
 */

/**
 * @typedef {object} ControlTarget
 * @property {import('./state').State} state
 * @property {(rule: unknown) => unknown} addFault
 * @property {(o: Record<string, unknown>) => void} setOptions
 * @property {() => Promise<void>} reset
 * @property {(name: string, bytes: Buffer, o: { contentType?: string, length?: boolean }) => string} addDownload
 * @property {(event: Record<string, unknown>) => unknown} addEvent
 * @property {(linkId: string, apiKey?: string) => void} removeEvent
 * @property {(linkId: string, album: Record<string, unknown>) => unknown} addAlbum
 * @property {(linkId: string, albumId: string, apiKey?: string) => void} removeAlbum
 */

/** @param {import('node:http').IncomingHttpHeaders} headers */
function redact(headers) {
	const out = { ...headers };
	if (out.authorization !== undefined) out.authorization = '[redacted]';
	if (out['x-api-key'] !== undefined) out['x-api-key'] = '[redacted]';
	return out;
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<unknown>}
 */
async function jsonBody(req) {
	const raw = await readBody(req, 1024 * 1024);
	if (raw === undefined) throw new TypeError('Body too large');
	const text = raw.toString('utf8').trim();
	return text === '' ? {} : JSON.parse(text);
}

/**
 * @param {ControlTarget} t
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 */
async function handleControl(t, req, res, path) {
	const route = `${req.method} ${path}`;
	try {
		if (req.method === 'PUT' && path.startsWith('/__control/downloads/')) {
			const bytes = await readBody(req, 2 * 1024 ** 3);
			if (bytes === undefined) throw new TypeError('A download may be at most 2 GiB');
			const url = t.addDownload(decodeURIComponent(path.slice('/__control/downloads/'.length)), bytes, {
				contentType: req.headers['content-type'],
				length: !/[?&]length=false(&|$)/.test(req.url ?? ''),
			});
			return sendJson(res, 200, { url });
		}
		if (path === '/__control/events' || path.startsWith('/__control/events/'))
			return await handleEvents(t, req, res, path);
		switch (route) {
			case 'GET /__control/faults':
				return sendJson(res, 200, { faults: t.state.faults.rules });
			case 'POST /__control/faults': {
				const body = /** @type {any} */ (await jsonBody(req));
				/** @type {unknown[]} */
				const rules = Array.isArray(body) ? body : Array.isArray(body?.rules) ? body.rules : [body];
				const { validateRule } = require('./faults');
				rules.forEach(validateRule);
				rules.forEach((r) => t.addFault(r));
				return sendJson(res, 200, { faults: t.state.faults.rules });
			}
			case 'DELETE /__control/faults':
				t.state.faults.clear();
				return sendJson(res, 200, { faults: [] });
			case 'GET /__control/options':
				return sendJson(res, 200, { options: t.state.options });
			case 'POST /__control/options': {
				const body = await jsonBody(req);
				if (!body || typeof body !== 'object' || Array.isArray(body))
					throw new TypeError('Options must be a JSON object');
				t.setOptions(/** @type {Record<string, unknown>} */ (body));
				return sendJson(res, 200, { options: t.state.options });
			}
			case 'POST /__control/reset':
				await t.reset();
				return sendJson(res, 200, { ok: true });
			case 'GET /__control/uploads':
				return sendJson(res, 200, { uploads: t.state.uploads });
			case 'GET /__control/requests':
				return sendJson(res, 200, {
					requests: t.state.requests.map((r) => ({ ...r, headers: redact(r.headers) })),
				});
			default:
				return sendError(res, 404, 'NOT_FOUND', `No control route ${route}.`);
		}
	} catch (e) {
		if (res.headersSent || gone(req)) return;
		return sendError(
			res,
			400,
			'INVALID_CONTROL_REQUEST',
			e instanceof Error ? e.message : String(e),
		);
	}
}

/**
 * The events and albums routes (see the list at the top).
 * @param {ControlTarget} t
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 */
async function handleEvents(t, req, res, path) {
	const { publicAccounts } = require('./accounts');
	const apiKey = new URL(req.url ?? '/', 'http://emulator').searchParams.get('apiKey') ?? undefined;
	const parts = path
		.slice('/__control/events'.length)
		.split('/')
		.filter((part) => part !== '')
		.map((part) => decodeURIComponent(part));
	const [linkId, albums, albumId] = parts;
	if (req.method === 'GET' && parts.length === 0)
		return sendJson(res, 200, { accounts: publicAccounts(t.state.accounts) });
	if (req.method === 'POST' && parts.length === 0) {
		const event = t.addEvent(/** @type {Record<string, unknown>} */ (await jsonBody(req)));
		return sendJson(res, 200, { event });
	}
	if (req.method === 'DELETE' && parts.length === 1) {
		t.removeEvent(linkId, apiKey);
		return sendJson(res, 200, { ok: true });
	}
	if (req.method === 'POST' && parts.length === 2 && albums === 'albums') {
		const album = t.addAlbum(linkId, /** @type {Record<string, unknown>} */ (await jsonBody(req)));
		return sendJson(res, 200, { album });
	}
	if (req.method === 'DELETE' && parts.length === 3 && albums === 'albums') {
		t.removeAlbum(linkId, albumId, apiKey);
		return sendJson(res, 200, { ok: true });
	}
	return sendError(res, 404, 'NOT_FOUND', `No control route ${req.method} ${path}.`);
}

module.exports = { handleControl, redact };
