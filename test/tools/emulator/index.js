// @ts-check
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { SEED, DEMO_API_KEY, OTHER_API_KEY } = require('./seed');
const { FaultSet, RateLimiter } = require('./faults');
const { makeOptions, applyOptions } = require('./state');
const { listEvents, getUploadUrl, notFound } = require('./service');
const { handleStorage, onClientError } = require('./storage');
const { handleControl } = require('./control');
const { sendPage, sendFile } = require('./page');
const { sendText, drain, gone, cut } = require('./http-util');
const { startElsewhere } = require('./hostile');
const { Link } = require('./network');
const accounts = require('./accounts');

/** The EventPics emulator: the service and the object storage on two loopback ports. */

const HOST = '127.0.0.1';

/**
 * @typedef {Partial<import('./state').EmulatorOptions> & {
 *   port?: number, storagePort?: number, storageDir?: string, seed?: number,
 *   signingSecret?: string, loadExisting?: boolean
 * }} StartOptions
 */

/**
 * @typedef {object} Emulator
 * @property {string} baseUrl service address, e.g. http://127.0.0.1:8787
 * @property {string} storageUrl object storage address (another port)
 * @property {string} elsewhereUrl a second loopback listener (another port) that redirect faults point to
 * @property {import('./hostile').ElsewhereRequest[]} elsewhere every request the listener received (headers and body)
 * @property {string} apiKey the demo key
 * @property {string} otherApiKey a second account's key
 * @property {string} storageDir where stored files live
 * @property {import('./state').StoredUpload[]} uploads stored files (same array for the emulator's life)
 * @property {import('./state').RequestLogEntry[]} requests every request to both servers
 * @property {import('./state').EmulatorOptions} options current options (read-only copy)
 * @property {import('./faults').FaultRule[]} faults active fault rules
 * @property {(rule: import('./faults').FaultRule) => import('./faults').FaultRule} addFault
 * @property {() => void} clearFaults
 * @property {(o: Partial<import('./state').EmulatorOptions> & { seed?: number }) => void} setOptions
 * @property {(name: string, bytes: Buffer | string, o?: { contentType?: string, length?: boolean }) => string} addDownload
 *   serves `bytes` at `GET <storageUrl>/downloads/<name>` (Content-Length unless `length: false`); returns that address
 * @property {() => void} reset clears faults, uploads (and their files), downloads, held (stalled) requests, the request log and the rate window; options and events go back to the start values
 * @property {(event: { linkId: string, title: string, albums?: Array<{ id?: string, albumId?: string, title: string }>, apiKey?: string }) => import('./seed').SeedEvent} addEvent adds an event at the end of the account's list (the demo key's without `apiKey`)
 * @property {(linkId: string, apiKey?: string) => void} removeEvent
 * @property {(linkId: string, album: { id?: string, albumId?: string, title: string, apiKey?: string }) => import('./seed').SeedAlbum} addAlbum adds an album at the end of the event's albums
 * @property {(linkId: string, albumId: string, apiKey?: string) => void} removeAlbum
 * @property {Array<{ name: string, events: import('./seed').SeedEvent[] }>} events every account's events now (a copy, without keys)
 * @property {() => Promise<void>} close
 */

/**
 * @param {http.Server} server
 * @param {number} port
 * @returns {Promise<number>}
 */
function listen(server, port) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, HOST, () => {
			server.removeListener('error', reject);
			resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
		});
	});
}

/**
 * @param {string} dir
 * @returns {import('./state').StoredUpload[]}
 */
function loadStored(dir) {
	const out = [];
	for (const name of fs.readdirSync(dir)) {
		if (!/^[0-9a-f]{24}\.json$/.test(name)) continue;
		try {
			const record = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
			if (fs.existsSync(record.path)) out.push(record);
		} catch {
			// not ours or damaged: skip
		}
	}
	return out.sort((a, b) => String(a.uploadedAt).localeCompare(String(b.uploadedAt)));
}

/**
 * Start the emulator on 127.0.0.1 (ports 0 = ephemeral, the default).
 * @param {StartOptions} [startOptions]
 * @returns {Promise<Emulator>}
 */
async function startEmulator(startOptions = {}) {
	const {
		port = 0,
		storagePort = 0,
		storageDir,
		seed,
		signingSecret,
		loadExisting = false,
		...rest
	} = startOptions;
	const initialOptions = makeOptions(rest);
	const ownDir = storageDir === undefined;
	const dir = ownDir
		? fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-emulator-'))
		: path.resolve(storageDir);
	fs.mkdirSync(dir, { recursive: true });

	/** @type {import('./state').State} */
	const state = {
		options: { ...initialOptions },
		faults: new FaultSet(seed),
		limiter: new RateLimiter(),
		secret: signingSecret ?? crypto.randomBytes(32).toString('hex'),
		baseUrl: '',
		storageUrl: '',
		elsewhereUrl: '',
		storageDir: dir,
		uploads: loadExisting ? loadStored(dir) : [],
		requests: [],
		downloads: new Map(),
		putLink: new Link(),
		downloadLink: new Link(),
		held: new Set(),
		accounts: accounts.seedAccounts(),
	};

	const elsewhere = await startElsewhere();
	state.elsewhereUrl = elsewhere.url;

	const target = {
		state,
		addFault: (/** @type {unknown} */ rule) => state.faults.add(rule),
		setOptions: (/** @type {Record<string, unknown>} */ o) => {
			applyOptions(state.options, o);
			if (o.seed !== undefined) {
				if (typeof o.seed !== 'number') throw new TypeError('seed must be a number');
				state.faults.setSeed(o.seed);
			}
		},
		addDownload: (
			/** @type {string} */ name,
			/** @type {Buffer | string} */ bytes,
			/** @type {{ contentType?: string, length?: boolean }} */ o = {},
		) => {
			state.downloads.set(name, {
				bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
				contentType: o.contentType ?? 'application/octet-stream',
				length: o.length !== false,
			});
			return `${state.storageUrl}/downloads/${encodeURIComponent(name)}`;
		},
		reset: () => {
			state.faults.clear();
			state.limiter.clear();
			state.downloads.clear();
			state.putLink.clear();
			state.downloadLink.clear();
			for (const req of state.held) cut(req);
			state.held.clear();
			state.requests.length = 0;
			elsewhere.requests.length = 0;
			for (const u of state.uploads) {
				fs.rmSync(u.path, { force: true });
				fs.rmSync(u.path + '.json', { force: true });
			}
			state.uploads.length = 0;
			state.options = { ...initialOptions };
			state.accounts = accounts.seedAccounts();
			if (seed !== undefined) state.faults.setSeed(seed);
		},
		addEvent: (/** @type {Record<string, unknown>} */ event) =>
			accounts.addEvent(state.accounts, event),
		removeEvent: (/** @type {string} */ linkId, /** @type {string | undefined} */ apiKey) =>
			accounts.removeEvent(state.accounts, linkId, apiKey),
		addAlbum: (/** @type {string} */ linkId, /** @type {Record<string, unknown>} */ album) =>
			accounts.addAlbum(state.accounts, linkId, album),
		removeAlbum: (
			/** @type {string} */ linkId,
			/** @type {string} */ albumId,
			/** @type {string | undefined} */ apiKey,
		) => accounts.removeAlbum(state.accounts, linkId, albumId, apiKey),
	};

	/**
	 * @param {'api'|'storage'} server
	 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>} handler
	 */
	const logged =
		(server, handler) =>
		(/** @type {http.IncomingMessage} */ req, /** @type {http.ServerResponse} */ res) => {
			/** @type {import('./state').RequestLogEntry} */
			const entry = {
				server,
				method: req.method ?? '',
				url: req.url ?? '',
				headers: { ...req.headers },
				status: 0,
				startedAt: performance.now(),
				endedAt: undefined,
			};
			state.requests.push(entry);
			// a long CLI session keeps the last 10000 entries only
			if (state.requests.length > 10000) state.requests.splice(0, state.requests.length - 10000);
			res.on('finish', () => {
				entry.status = res.statusCode;
			});
			res.on('close', () => {
				entry.endedAt = performance.now();
			});
			handler(req, res).catch((err) => {
				console.error(
					`[eventpics-emulator] internal error on ${server} ${req.method}: ${err && err.message}`,
				);
				if (!res.headersSent && !gone(req)) sendText(res, 500, 'Emulator internal error');
				else res.destroy();
			});
		};

	const api = http.createServer(
		logged('api', async (req, res) => {
			const p = (req.url ?? '/').split('?')[0];
			if (p === '/geteventsandalbums') return listEvents(state, req, res);
			if (p === '/getuploadurl') return getUploadUrl(state, req, res);
			if (p.startsWith('/__control/'))
				return handleControl(/** @type {any} */ (target), req, res, p);
			const read = req.method === 'GET' || req.method === 'HEAD';
			if (read && p === '/') return sendPage(state, res);
			if (read && p.startsWith('/files/'))
				return sendFile(state, req, res, safeDecode(p.slice('/files/'.length)));
			await drain(req, 1024 * 1024);
			notFound(res);
		}),
	);
	const storage = http.createServer(
		logged('storage', (req, res) => handleStorage(state, req, res)),
	);
	storage.on('clientError', onClientError);

	const apiPort = await listen(api, port).catch(async (e) => {
		await elsewhere.close();
		throw e;
	});
	const storePort = await listen(storage, storagePort).catch(async (e) => {
		await new Promise((r) => api.close(r));
		await elsewhere.close();
		throw e;
	});
	state.baseUrl = `http://${HOST}:${apiPort}`;
	state.storageUrl = `http://${HOST}:${storePort}`;

	/** @param {http.Server} s */
	const closeServer = (s) =>
		new Promise((resolve) => {
			s.close(() => resolve(undefined));
			s.closeAllConnections();
		});

	/** @type {Emulator} */
	const emu = {
		baseUrl: state.baseUrl,
		storageUrl: state.storageUrl,
		elsewhereUrl: elsewhere.url,
		elsewhere: elsewhere.requests,
		apiKey: DEMO_API_KEY,
		otherApiKey: OTHER_API_KEY,
		storageDir: dir,
		uploads: state.uploads,
		requests: state.requests,
		get options() {
			return { ...state.options };
		},
		get faults() {
			return state.faults.rules;
		},
		addFault: (rule) => state.faults.add(rule),
		clearFaults: () => state.faults.clear(),
		addDownload: (name, bytes, o) => target.addDownload(name, bytes, o),
		setOptions: (o) => target.setOptions(/** @type {Record<string, unknown>} */ (o)),
		reset: () => target.reset(),
		addEvent: (event) => target.addEvent(event),
		removeEvent: (linkId, apiKey) => target.removeEvent(linkId, apiKey),
		addAlbum: (linkId, album) => target.addAlbum(linkId, album),
		removeAlbum: (linkId, albumId, apiKey) => target.removeAlbum(linkId, albumId, apiKey),
		get events() {
			return accounts.publicAccounts(state.accounts);
		},
		close: async () => {
			await Promise.all([closeServer(api), closeServer(storage), elsewhere.close()]);
			if (ownDir) fs.rmSync(dir, { recursive: true, force: true });
		},
	};
	return emu;
}

/** @param {string} s */
function safeDecode(s) {
	try {
		return decodeURIComponent(s);
	} catch {
		return '';
	}
}

module.exports = { startEmulator, DEMO_API_KEY, OTHER_API_KEY, SEED };
