// @ts-check
'use strict';

/**
 * Row 3: N small files through the node while the emulator allows only `perSecond` requests in
 * any one-second window (more get 429 with Retry-After: 1).
 *
 * - scope "api" (the default): the limit covers the two service endpoints only, as an API gateway
 *   in front of EventPics would (`apiRateLimitPerSecond`); the PUTs to the storage are not limited.
 *   The upload needs N+1 limited requests (one GET of the events, then one getuploadurl per file),
 *   so no client can finish before (N+1)/perSecond seconds: the ideal the time is compared with.
 * - scope "all": one window over both endpoints and the PUT (`rateLimitPerSecond`); 2N+1 limited
 *   requests. A getuploadurl and its PUT go out together, so a client that is never refused fits
 *   only 2 pairs in any second of a 5/s limit: 1.25x the ideal (2N+1)/perSecond is the floor there.
 * - window "sliding" (the default): at most perSecond in any second; "fixed": a window opens with the
 *   first request after the last one closed and lets perSecond through until it closes a second later
 *   (`fixedRateWindow`), as many API gateways count. The ideal is the same.
 */

const path = require('node:path');
const engine = require('../engine');
const {
	MB,
	NODE_TYPE,
	makeTempFolder,
	removeTempFolder,
	startChildEmulator,
	uploadParameters,
	writeJpeg,
} = require('./common');

/**
 * @typedef {object} RateResult
 * @property {number} files
 * @property {number} bytes
 * @property {number} perSecond
 * @property {'api' | 'all'} scope
 * @property {'sliding' | 'fixed'} window
 * @property {number | 'default'} concurrency
 * @property {number} ms
 * @property {number} idealMs
 * @property {number} requests every request the emulator received (429s included)
 * @property {number} throttled answers with 429
 * @property {number} urlCalls getuploadurl calls (429s included)
 * @property {number} urlThrottled getuploadurl calls answered 429
 * @property {number} puts PUTs (429s included)
 * @property {number} putThrottled PUTs answered 429
 * @property {number} maxAttempts highest "attempts" of one file in the output
 */

/**
 * @param {{ files: number, fileKb: number, perSecond: number, scope: 'api' | 'all', window: 'sliding' | 'fixed', concurrency: number | 'default',
 *   compiled: ReturnType<typeof import('./common').loadCompiled>, log: (line: string) => void }} options
 * @returns {Promise<RateResult>}
 */
async function runRateLimit(options) {
	const { compiled, log } = options;
	const folder = makeTempFolder('ratelimit');
	const emulator = await startChildEmulator({ storageDir: path.join(folder, 'emulator') });
	try {
		const fileBytes = Math.round((options.fileKb * MB) / 1024);
		/** @type {import('n8n-workflow').IBinaryData[]} */
		const stored = [];
		for (let i = 0; i < options.files; i++) {
			const name = `rate-${String(i).padStart(3, '0')}.jpg`;
			const written = await writeJpeg(path.join(folder, name), fileBytes);
			stored.push(
				await engine.storeBinary(written.path, { fileName: name, mimeType: 'image/jpeg' }),
			);
		}
		const credentials = { eventPicsApi: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl } };
		const parameters = uploadParameters(
			options.concurrency === 'default' ? {} : { concurrency: options.concurrency },
		);
		/** @param {import('n8n-workflow').IBinaryData[]} binaries */
		const run = async (binaries) =>
			await engine.runNode({
				nodeType: NODE_TYPE,
				...compiled,
				credentials,
				parameters,
				inputItems: binaries.map((binary) => ({ json: {}, binary: { data: binary } })),
			});

		// Warm-up without a limit (code loaded), then the limit on a clean window.
		await run(stored.slice(0, 2));
		await emulator.control('/__control/reset', 'POST');
		await setOptions(emulator.baseUrl, {
			[options.scope === 'api' ? 'apiRateLimitPerSecond' : 'rateLimitPerSecond']: options.perSecond,
			fixedRateWindow: options.window === 'fixed' ? 1 : 0,
		});

		log(
			`  rate limit ${options.perSecond}/s (${options.scope}, ${options.window} window): ${options.files} files at concurrency ${options.concurrency}...`,
		);
		const started = performance.now();
		const result = await run(stored);
		const ms = performance.now() - started;

		const { uploads } = await emulator.control('/__control/uploads');
		const good = result.items.filter((item) => item.json.statusCode === 200).length;
		if (result.status !== 'success' || good !== options.files || uploads.length !== options.files) {
			throw new Error(
				`rate-limited run failed: status ${result.status}, ${good}/${options.files} uploaded, emulator has ${uploads.length}: ` +
					String(result.error?.message ?? ''),
			);
		}
		/** @type {{ requests: Array<{ status: number, url: string, method: string }> }} */
		const { requests } = await emulator.control('/__control/requests');
		const work = requests.filter((r) => !r.url.startsWith('/__control'));
		const urlCalls = work.filter((r) => r.method === 'POST' && r.url.startsWith('/getuploadurl'));
		if (process.env.RATE_DUMP) require('node:fs').writeFileSync(process.env.RATE_DUMP, JSON.stringify(urlCalls));
		const puts = work.filter((r) => r.method === 'PUT');
		return {
			files: options.files,
			bytes: options.files * fileBytes,
			perSecond: options.perSecond,
			scope: options.scope,
			window: options.window,
			concurrency: options.concurrency,
			ms,
			idealMs: (((options.scope === 'api' ? 1 : 2) * options.files + 1) / options.perSecond) * 1000,
			requests: work.length,
			throttled: work.filter((r) => r.status === 429).length,
			urlCalls: urlCalls.length,
			urlThrottled: urlCalls.filter((r) => r.status === 429).length,
			puts: puts.length,
			putThrottled: puts.filter((r) => r.status === 429).length,
			maxAttempts: Math.max(...result.items.map((item) => Number(item.json.attempts ?? 1))),
		};
	} finally {
		await emulator.stop();
		removeTempFolder(folder);
	}
}

/**
 * POST /__control/options with a JSON body.
 * @param {string} baseUrl
 * @param {Record<string, number>} options
 */
async function setOptions(baseUrl, options) {
	const { request } = require('undici');
	const answer = await request(`${baseUrl}/__control/options`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(options),
	});
	const text = await answer.body.text();
	if (answer.statusCode !== 200)
		throw new Error(`setting emulator options failed: ${answer.statusCode} ${text}`);
}

module.exports = { runRateLimit };
