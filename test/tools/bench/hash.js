// @ts-check
'use strict';

/**
 * Row "hash": how fast the compiled node reads a file once for "Skip Files Uploaded Before" by
 * content (dist/.../actions/photo/file.js `readOnce`: its first MiB, the wholeness check and the
 * SHA-256 with node:crypto, in one pass).
 *
 *   memory  a 256 MB Buffer body (the inline-binary path): the hash alone
 *   disk    a file streamed from disk as n8n's filesystem binary store hands it out (64 KiB
 *           chunks): the hash plus the reading (the file was just written: page cache)
 *
 * Besides the wall time it records the CPU time of this process (user + system, all threads) during
 * the hash, which other processes on a loaded machine do not stretch: size / CPU time is the rate
 * the work itself allows.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, MB, makeTempFolder, removeTempFolder, writeJpeg } = require('./common');

/**
 * @typedef {{ mb: number, allMs: number[], cpuMs: number[], key: string, expected: string }} HashResult
 */

/**
 * @param {number} repeat
 * @param {() => Promise<string>} run
 */
async function measure(repeat, run) {
	const allMs = [];
	const cpuMs = [];
	let key = '';
	for (let r = 0; r < repeat; r++) {
		const cpu = process.cpuUsage();
		const started = performance.now();
		key = await run();
		allMs.push(performance.now() - started);
		const used = process.cpuUsage(cpu);
		cpuMs.push((used.user + used.system) / 1000);
	}
	return { allMs, cpuMs, key };
}

/**
 * @param {{ mb: number, repeat: number, log: (line: string) => void }} options
 * @returns {Promise<{ memory: HashResult, disk: HashResult }>}
 */
async function runHash(options) {
	const { readOnce } = require(
		path.join(ROOT, 'dist', 'nodes', 'EventPics', 'actions', 'photo', 'file.js'),
	);
	/** @param {Buffer | NodeJS.ReadableStream} body */
	const contentKey = async (body) => `sha256:${(await readOnce(body, true)).hash}`;
	const buffer = crypto.randomBytes(256 * MB);
	const memory = {
		mb: 256,
		...(await measure(options.repeat, async () => await contentKey(buffer))),
		expected: `sha256:${crypto.createHash('sha256').update(buffer).digest('hex')}`,
	};
	const folder = makeTempFolder('hash');
	try {
		const file = path.join(folder, 'big.jpg');
		options.log(`  writing a ${options.mb} MB file...`);
		const written = await writeJpeg(file, options.mb * MB);
		const disk = {
			mb: options.mb,
			...(await measure(options.repeat, async () => await contentKey(fs.createReadStream(file)))),
			expected: `sha256:${written.sha256}`,
		};
		return { memory, disk };
	} finally {
		removeTempFolder(folder);
	}
}

module.exports = { runHash };
