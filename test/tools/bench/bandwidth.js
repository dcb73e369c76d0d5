// @ts-check
'use strict';

/**
 * Row 5: N files of M MiB through the node while the emulator's storage reads PUT bodies at a fixed
 * rate shared by all of them (storageReadBytesPerSecond: one uplink). No client can move the bytes
 * faster than the link: the achieved throughput (all bytes / wall time, from the run's start to its
 * end, getuploadurl and answers included) is compared with the link's rate.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const engine = require('../engine');
const { mediaBytes } = require('../media-bytes');
const {
	MB,
	NODE_TYPE,
	makeTempFolder,
	removeTempFolder,
	startChildEmulator,
	uploadParameters,
} = require('./common');

/**
 * @typedef {object} BandwidthResult
 * @property {number} files
 * @property {number} bytes
 * @property {number} linkBytesPerSecond
 * @property {number} ms
 * @property {number} puts PUT requests the storage received
 * @property {number} maxAttempts highest "attempts" of one file in the output
 */

/**
 * @param {{ files: number, fileMb: number, linkMbPerSecond: number,
 *   compiled: ReturnType<typeof import('./common').loadCompiled>, log: (line: string) => void }} options
 * @returns {Promise<BandwidthResult>}
 */
async function runBandwidth(options) {
	const { compiled, log } = options;
	const folder = makeTempFolder('bandwidth');
	const emulator = await startChildEmulator({ storageDir: path.join(folder, 'emulator') });
	try {
		const fileBytes = Math.round(options.fileMb * MB);
		/** @type {import('n8n-workflow').IBinaryData[]} */
		const stored = [];
		/** @type {Map<string, string>} */
		const hashes = new Map();
		for (let i = 0; i < options.files; i++) {
			const name = `clip-${String(i).padStart(3, '0')}.mp4`;
			const bytes = mediaBytes(fileBytes, 'mp4'); // a video's first bytes: random ones alone are refused
			hashes.set(name, crypto.createHash('sha256').update(bytes).digest('hex'));
			const file = path.join(folder, name);
			fs.writeFileSync(file, bytes);
			stored.push(await engine.storeBinary(file, { fileName: name, mimeType: 'video/mp4' }));
		}
		const credentials = { eventPicsApi: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl } };
		/** @param {import('n8n-workflow').IBinaryData[]} binaries */
		const run = async (binaries) =>
			await engine.runNode({
				nodeType: NODE_TYPE,
				...compiled,
				credentials,
				parameters: uploadParameters({}),
				inputItems: binaries.map((binary) => ({ json: {}, binary: { data: binary } })),
			});

		// Warm-up without a limit (code loaded), then the link on a clean emulator.
		await run(stored.slice(0, 1));
		await emulator.control('/__control/reset', 'POST');
		const linkBytesPerSecond = Math.round(options.linkMbPerSecond * MB);
		const { request } = require('undici');
		const set = await request(`${emulator.baseUrl}/__control/options`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ storageReadBytesPerSecond: linkBytesPerSecond }),
		});
		if (set.statusCode !== 200) throw new Error(`setting the link rate failed: ${await set.body.text()}`);
		await set.body.dump();

		log(
			`  link ${options.linkMbPerSecond} MB/s: ${options.files} x ${options.fileMb} MB, default options...`,
		);
		const started = performance.now();
		const result = await run(stored);
		const ms = performance.now() - started;

		/** @type {{ uploads: Array<{ fileName: string, sha256: string }> }} */
		const { uploads } = await emulator.control('/__control/uploads');
		const good = result.items.filter((item) => item.json.statusCode === 200).length;
		const whole = uploads.filter((u) => hashes.get(u.fileName) === u.sha256).length;
		if (result.status !== 'success' || good !== options.files || whole !== options.files) {
			throw new Error(
				`bandwidth run failed: status ${result.status}, ${good}/${options.files} uploaded, ${whole} stored whole: ` +
					String(result.error?.message ?? result.nodeError?.message ?? ''),
			);
		}
		/** @type {{ requests: Array<{ server: string, method: string }> }} */
		const { requests } = await emulator.control('/__control/requests');
		return {
			files: options.files,
			bytes: options.files * fileBytes,
			linkBytesPerSecond,
			ms,
			puts: requests.filter((r) => r.server === 'storage' && r.method === 'PUT').length,
			maxAttempts: Math.max(...result.items.map((item) => Number(item.json.attempts ?? 1))),
		};
	} finally {
		await emulator.stop();
		removeTempFolder(folder);
	}
}

module.exports = { runBandwidth };
