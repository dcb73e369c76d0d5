#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * What hostile answers of the service cost the node: memory (peak RSS growth of this process, the
 * emulator runs in a child process), time, and the size of what ends in the run data (output items
 * and the error, as JSON). Cases: a 100 MiB getuploadurl answer, a 400 with a 50 MiB message, and a
 * getuploadurl answer that drips one byte every 500 ms (Timeout 5 s, Max Attempts 2).
 *
 *   npm run build && node --expose-gc test/tools/bench/hostile.js [--dist <folder with a build>] [--give-up <s>]
 *
 * `--dist` measures another build (e.g. one of an older commit) with this emulator; `--give-up` ends
 * a case that has not finished after that many seconds (default 90) and reports it as such.
 * Prints a table and one line `BENCH_HOSTILE {json}`. Never fails on the figures.
 */

const engine = require('../engine');
const path = require('node:path');
const { request } = require('undici');
const common = require('./common');
const { mediaBytes } = require('../media-bytes');

const argv = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
	const at = argv.indexOf(name);
	return at >= 0 && argv[at + 1] ? argv[at + 1] : fallback;
};
const DIST = path.resolve(option('--dist', path.join(__dirname, '..', '..', '..', 'dist')));
const GIVE_UP_MS = Number(option('--give-up', '90')) * 1000;

const CASES = [
	{
		name: '100 MiB getuploadurl answer',
		fault: { endpoint: 'getuploadurl', kind: 'huge', bytes: 100 * common.MB },
		options: {},
	},
	{
		name: '400 with a 50 MiB message',
		fault: { endpoint: 'getuploadurl', kind: 'huge', status: 400, bytes: 50 * common.MB },
		options: {},
	},
	{
		name: 'getuploadurl dripping 1 byte / 500 ms',
		fault: { endpoint: 'getuploadurl', kind: 'drip', ms: 500 },
		options: { timeoutSeconds: 5, maxAttempts: 2 },
	},
];

/**
 * A control call on a fresh connection (a pooled one may have been closed by the emulator meanwhile).
 * @param {string} baseUrl @param {string} controlPath @param {object} [rule]
 */
async function control(baseUrl, controlPath, rule) {
	const answer = await request(`${baseUrl}${controlPath}`, {
		method: 'POST',
		reset: true,
		headers: { 'content-type': 'application/json' },
		body: rule === undefined ? '' : JSON.stringify(rule),
	});
	await answer.body.text();
}

async function main() {
	const { EventPics } = require(path.join(DIST, 'nodes', 'EventPics', 'EventPics.node.js'));
	const { EventPicsApi } = require(path.join(DIST, 'credentials', 'EventPicsApi.credentials.js'));
	const nodeTypes = { [common.NODE_TYPE]: new EventPics() };
	const credentialTypes = { eventPicsApi: new EventPicsApi() };
	const folder = common.makeTempFolder('hostile');
	const emu = await common.startChildEmulator({ storageDir: folder });
	const rows = [];
	try {
		const run = (/** @type {Record<string, number | undefined>} */ options) =>
			engine.runNode({
				nodeType: common.NODE_TYPE,
				nodeTypes,
				credentialTypes,
				credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
				parameters: { ...common.uploadParameters(), options },
				inputItems: [
					{
						binary: {
							data: engine.binaryFromBuffer(mediaBytes(2048), {
								fileName: 'h.jpg',
								mimeType: 'image/jpeg',
							}),
						},
					},
				],
			});
		await run({}); // warm-up: code, sockets, the binary store
		for (const testCase of CASES) {
			console.error(`[hostile] ${testCase.name}`);
			await control(emu.baseUrl, '/__control/reset');
			await control(emu.baseUrl, '/__control/faults', testCase.fault);
			await common.settle();
			const baseline = common.rss();
			const sampler = common.startRssSampler(20);
			const started = Date.now();
			/** @type {any} */
			let result;
			const giveUp = new Promise((resolve) =>
				setTimeout(() => resolve('gave up'), GIVE_UP_MS).unref(),
			);
			const outcome = await Promise.race([run(testCase.options).then((r) => (result = r)), giveUp]);
			const seconds = (Date.now() - started) / 1000;
			const { peak } = sampler.stop();
			const runData = result
				? JSON.stringify({ items: result.items, error: result.nodeError }).length
				: NaN;
			rows.push({
				case: testCase.name,
				seconds:
					outcome === 'gave up' ? `> ${GIVE_UP_MS / 1000} (still running)` : seconds.toFixed(1),
				rssGrowthMb: ((peak - baseline) / common.MB).toFixed(1),
				runDataKb: Number.isNaN(runData) ? 'n/a' : (runData / 1024).toFixed(1),
				message: String(result?.nodeError?.message ?? result?.status ?? '').slice(0, 110),
				tried:
					/Tried \d+ times over about \d+ s/.exec(
						String(result?.nodeError?.description ?? ''),
					)?.[0] ?? '',
			});
		}
	} finally {
		await emu.stop();
		common.removeTempFolder(folder);
	}
	console.log(`build: ${DIST}`);
	console.log(
		common.formatTable(
			['case', 's', 'RSS growth MiB', 'run data KiB', 'error', 'description says'],
			rows.map((r) => [
				r.case,
				r.seconds,
				r.rssGrowthMb,
				r.runDataKb,
				r.message.slice(0, 70),
				r.tried,
			]),
			[1, 2, 3],
		),
	);
	console.log(`BENCH_HOSTILE ${JSON.stringify(rows)}`);
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
