#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Row 2: peak RSS growth of this process while the node uploads ONE large file in the real engine.
 *
 * Run as its own process (run.js spawns `node --expose-gc test/tools/bench/memory.js --mb 1024`), so the
 * heap is fresh and nothing of the other rows is counted or reused. The emulator runs in a child
 * process of its own (its memory is not ours). The file is written to a temp folder, stored in n8n's
 * filesystem binary store (streamed, before the clock starts), and the temp copy deleted; the node
 * then streams it from the store into the PUT.
 *
 * Measured: baseline RSS after a warm-up upload (so code and sockets are loaded) and `gc()` (with
 * --expose-gc), then RSS sampled every 20 ms by a timer during the run; growth = peak - baseline.
 * Linux's VmHWM (reset just before the run) is read as a cross-check of the sampled peak.
 *
 * Prints one line `BENCH_MEMORY {json}` (and progress on stderr).
 */

// The engine harness first: it prepares n8n's environment before anything uses it.
const engine = require('../engine');
const path = require('node:path');
const fs = require('node:fs');
const {
	MB,
	NODE_TYPE,
	kernelPeakRss,
	loadCompiled,
	makeTempFolder,
	removeTempFolder,
	resetPeakRss,
	rss,
	settle,
	startChildEmulator,
	startRssSampler,
	uploadParameters,
	writeJpeg,
} = require('./common');

/**
 * @typedef {object} MemoryResult
 * @property {number} mb file size in MB
 * @property {number} ms time of the node run
 * @property {number} baselineBytes
 * @property {number} peakBytes sampled
 * @property {number} growthBytes peak - baseline
 * @property {number | undefined} kernelPeakBytes VmHWM during the run (Linux)
 * @property {number} samples
 * @property {boolean} gc whether gc() settled the baseline
 * @property {string} sha256 of the file, as the emulator stored it
 */

/**
 * @param {number} fileMb
 * @param {(line: string) => void} log
 * @returns {Promise<MemoryResult>}
 */
async function measureMemory(fileMb, log) {
	const compiled = loadCompiled();
	const folder = makeTempFolder('memory');
	const emulator = await startChildEmulator({ storageDir: path.join(folder, 'emulator') });
	try {
		const credentials = { eventPicsApi: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl } };
		/** @param {import('n8n-workflow').IBinaryData} binary */
		const upload = async (binary) =>
			await engine.runNode({
				nodeType: NODE_TYPE,
				...compiled,
				credentials,
				parameters: uploadParameters(),
				inputItems: [{ json: {}, binary: { data: binary } }],
			});
		/** @param {number} bytes @param {string} name */
		const storeFile = async (bytes, name) => {
			const written = await writeJpeg(path.join(folder, name), bytes);
			const binary = await engine.storeBinary(written.path, {
				fileName: name,
				mimeType: 'image/jpeg',
			});
			fs.rmSync(written.path); // only the binary store's copy is left
			return { binary, sha256: written.sha256 };
		};

		log(`  memory: writing ${fileMb} MB and storing it in n8n's binary store...`);
		const big = await storeFile(Math.round(fileMb * MB), `big-${fileMb}mb.jpg`);

		log('  memory: warm-up upload (4 MB, not measured)...');
		const warm = await storeFile(4 * MB, 'warm-up.jpg');
		const warmed = await upload(warm.binary);
		if (warmed.items[0]?.json.statusCode !== 200)
			throw new Error(`warm-up upload failed: ${warmed.text()}`);
		await emulator.control('/__control/reset', 'POST');

		const gc = await settle();
		const baseline = rss();
		const kernelReset = resetPeakRss();
		const sampler = startRssSampler(20);
		const started = performance.now();
		const result = await upload(big.binary);
		const ms = performance.now() - started;
		const { peak, samples } = sampler.stop();
		const kernelPeak = kernelReset ? kernelPeakRss() : undefined;

		const { uploads } = await emulator.control('/__control/uploads');
		const item = result.items[0]?.json;
		if (item?.statusCode !== 200 || uploads.length !== 1 || uploads[0].sha256 !== big.sha256) {
			throw new Error(
				`the ${fileMb} MB upload failed or arrived changed: ${result.text().slice(0, 2000)}`,
			);
		}
		await emulator.control('/__control/reset', 'POST'); // deletes the stored copy now
		return {
			mb: fileMb,
			ms,
			baselineBytes: baseline,
			peakBytes: peak,
			growthBytes: peak - baseline,
			kernelPeakBytes: kernelPeak,
			samples,
			gc,
			sha256: big.sha256,
		};
	} finally {
		await emulator.stop();
		removeTempFolder(folder);
	}
}

/**
 * Runs memory.js in a fresh process (with --expose-gc) and returns its result.
 * @param {number} fileMb
 * @param {(line: string) => void} log
 * @returns {Promise<MemoryResult>}
 */
function measureMemoryInChild(fileMb, log) {
	const { spawn } = require('node:child_process');
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', __filename, '--mb', String(fileMb)], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		let err = '';
		/** @type {NonNullable<typeof child.stdout>} */ (child.stdout).on(
			'data',
			(chunk) => (out += String(chunk)),
		);
		/** @type {NonNullable<typeof child.stderr>} */ (child.stderr).on('data', (chunk) => {
			err += String(chunk);
			for (const line of String(chunk).split('\n')) if (line.trim() !== '') log(line);
		});
		child.once('error', reject);
		child.once('exit', (code) => {
			const match = /^BENCH_MEMORY (.*)$/m.exec(out);
			if (code === 0 && match) resolve(JSON.parse(match[1]));
			else reject(new Error(`memory.js --mb ${fileMb} exited with ${code}:\n${err}\n${out}`));
		});
	});
}

if (require.main === module) {
	const at = process.argv.indexOf('--mb');
	const fileMb = at >= 0 ? Number(process.argv[at + 1]) : 1024;
	if (!(fileMb > 0)) {
		console.error('Usage: node --expose-gc test/tools/bench/memory.js --mb <size in MB>');
		process.exit(2);
	}
	measureMemory(fileMb, (line) => process.stderr.write(`${line}\n`)).then(
		(result) => {
			process.stdout.write(`BENCH_MEMORY ${JSON.stringify(result)}\n`);
			process.exit(0);
		},
		(error) => {
			process.stderr.write(`${error?.stack ?? error}\n`);
			process.exit(1);
		},
	);
}

module.exports = { measureMemory, measureMemoryInChild };
