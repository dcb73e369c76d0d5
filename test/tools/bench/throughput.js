// @ts-check
'use strict';

/**
 * Row 1: many 1 MB files through the node in the real engine, against the raw undici two-step
 * loop at the same concurrency, with 50 ms added latency on every request of the emulator.
 *
 * The files are in n8n's filesystem binary store before the clock starts (as they are in
 * production when an earlier node read them), so the node streams them from disk; the raw loop
 * streams the same bytes from their own files. The emulator runs in a child process so that its
 * hashing and disk writes do not share our event loop.
 */

const path = require('node:path');
const engine = require('../engine');
const { rawUpload } = require('./raw');
const {
	ALBUM,
	EVENT,
	MB,
	NODE_TYPE,
	makeTempFolder,
	removeTempFolder,
	startChildEmulator,
	uploadParameters,
	writeJpeg,
} = require('./common');

/**
 * @typedef {object} Measurement
 * @property {'raw' | 'node'} kind
 * @property {number} concurrency
 * @property {string} concurrencyLabel e.g. '4 (default)'
 * @property {number} files
 * @property {number} bytes
 * @property {number} ms median over the repeats
 * @property {number[]} allMs every repeat
 * @property {number} cpuMsPerFile median CPU time of this process (user + system) per file: less noisy than
 *   the wall time on a shared machine (the emulator runs in its own process and is not counted)
 */

/** @template T @param {() => Promise<T>} run @returns {Promise<{ value: T, cpuMs: number }>} */
async function withCpu(run) {
	const before = process.cpuUsage();
	const value = await run();
	const used = process.cpuUsage(before);
	return { value, cpuMs: (used.user + used.system) / 1000 };
}

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * @param {{ files: number, fileMb: number, latencyMs: number, concurrencies: Array<number | 'default'>, repeat: number,
 *   compiled: ReturnType<typeof import('./common').loadCompiled>, log: (line: string) => void }} options
 * @returns {Promise<Measurement[]>}
 */
async function runThroughput(options) {
	const { compiled, log } = options;
	const folder = makeTempFolder('throughput');
	const emulator = await startChildEmulator({
		storageDir: path.join(folder, 'emulator'),
		latencyMs: options.latencyMs,
	});
	try {
		log(
			`  writing ${options.files} files of ${options.fileMb} MB and storing them in n8n's binary store...`,
		);
		const fileBytes = Math.round(options.fileMb * MB);
		/** @type {import('./raw').RawFile[]} */
		const rawFiles = [];
		/** @type {import('n8n-workflow').IBinaryData[]} */
		const stored = [];
		for (let i = 0; i < options.files; i++) {
			const name = `bench-${String(i).padStart(4, '0')}.jpg`;
			const written = await writeJpeg(path.join(folder, name), fileBytes);
			rawFiles.push({ path: written.path, name, size: written.size, contentType: 'image/jpeg' });
			stored.push(
				await engine.storeBinary(written.path, { fileName: name, mimeType: 'image/jpeg' }),
			);
		}
		const credentials = { eventPicsApi: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl } };

		/** @param {number} count @param {number | 'default'} concurrency */
		const runNodeOnce = async (count, concurrency) => {
			await emulator.control('/__control/reset', 'POST');
			const started = performance.now();
			const result = await engine.runNode({
				nodeType: NODE_TYPE,
				...compiled,
				credentials,
				parameters: uploadParameters(concurrency === 'default' ? {} : { concurrency }),
				inputItems: stored
					.slice(0, count)
					.map((binary) => ({ json: {}, binary: { data: binary } })),
			});
			const ms = performance.now() - started;
			const good = result.items.filter((item) => item.json.statusCode === 200).length;
			const { uploads } = await emulator.control('/__control/uploads');
			if (result.status !== 'success' || good !== count || uploads.length !== count) {
				throw new Error(
					`node run failed: status ${result.status}, ${good}/${count} uploaded, emulator has ${uploads.length}: ` +
						String(result.error?.message ?? ''),
				);
			}
			return ms;
		};
		/** @param {number} count @param {number} concurrency */
		const runRawOnce = async (count, concurrency) => {
			await emulator.control('/__control/reset', 'POST');
			const { ms, uploaded } = await rawUpload({
				baseUrl: emulator.baseUrl,
				apiKey: emulator.apiKey,
				linkId: EVENT,
				albumId: ALBUM,
				files: rawFiles.slice(0, count),
				concurrency,
			});
			const { uploads } = await emulator.control('/__control/uploads');
			if (uploaded !== count || uploads.length !== count) {
				throw new Error(
					`raw run failed: ${uploaded}/${count} uploaded, emulator has ${uploads.length}`,
				);
			}
			return ms;
		};

		log('  warming up (a few files each way, not measured)...');
		await runRawOnce(Math.min(8, options.files), 2);
		await runNodeOnce(Math.min(8, options.files), 2);

		/** @type {Measurement[]} */
		const measured = [];
		const { AUTO_CONCURRENCY } = require('../../../dist/nodes/EventPics/actions/options.js');
		for (const concurrency of options.concurrencies) {
			const effective = concurrency === 'default' ? Number(AUTO_CONCURRENCY.max) : concurrency;
			const label = concurrency === 'default' ? `auto 4-${effective} (default)` : String(effective);
			const rawMs = [];
			const nodeMs = [];
			const rawCpu = [];
			const nodeCpu = [];
			for (let r = 0; r < options.repeat; r++) {
				// raw and node alternate, so a slow patch of the machine hits both
				const raw = await withCpu(() => runRawOnce(options.files, effective));
				const node = await withCpu(() => runNodeOnce(options.files, concurrency));
				rawMs.push(raw.value);
				nodeMs.push(node.value);
				rawCpu.push(raw.cpuMs / options.files);
				nodeCpu.push(node.cpuMs / options.files);
				log(
					`  concurrency ${label}, run ${r + 1}/${options.repeat}: raw ${(rawMs[r] / 1000).toFixed(2)} s, node ${(nodeMs[r] / 1000).toFixed(2)} s; ` +
						`CPU per file raw ${rawCpu[r].toFixed(2)} ms, node ${nodeCpu[r].toFixed(2)} ms`,
				);
			}
			const common = {
				concurrency: effective,
				concurrencyLabel: label,
				files: options.files,
				bytes: options.files * fileBytes,
			};
			measured.push({
				kind: 'raw',
				...common,
				ms: median(rawMs),
				allMs: rawMs,
				cpuMsPerFile: median(rawCpu),
			});
			measured.push({
				kind: 'node',
				...common,
				ms: median(nodeMs),
				allMs: nodeMs,
				cpuMsPerFile: median(nodeCpu),
			});
		}
		return measured;
	} finally {
		await emulator.stop();
		removeTempFolder(folder);
	}
}

module.exports = { runThroughput, median };
