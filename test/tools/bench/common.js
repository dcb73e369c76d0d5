// @ts-check
'use strict';

/**
 * Shared parts of the benchmark: the compiled node, test files, the emulator in a child process,
 * an RSS sampler, temp folders that are always removed, and the table.
 *
 * Sizes: 1 MB = 1 MiB = 1,048,576 bytes throughout.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NODE_TYPE = 'n8n-nodes-eventpics.eventPics';
const MB = 1024 * 1024;
const EVENT = 'wedding-anna-ben';
const ALBUM = 'booth';
/** A real JPEG (with EXIF) whose bytes start every test file, so the node reads a real capture time. */
const JPEG_HEAD = path.join(ROOT, 'test', 'fixtures', 'samples', 'booth-0001.jpg');

/**
 * The compiled node and credential from dist/ (or another build folder, for A/B runs), loaded as n8n loads them.
 * @param {string} [dist] a folder holding a build (default: this repo's dist/)
 * @returns {{ nodeTypes: Record<string, any>, credentialTypes: Record<string, any> }}
 */
function loadCompiled(dist = path.join(ROOT, 'dist')) {
	const nodeFile = path.join(path.resolve(dist), 'nodes', 'EventPics', 'EventPics.node.js');
	const credentialFile = path.join(
		path.resolve(dist),
		'credentials',
		'EventPicsApi.credentials.js',
	);
	if (!fs.existsSync(nodeFile) || !fs.existsSync(credentialFile)) {
		throw new Error('dist/ has no build: run `npm run build` first (npm run bench does)');
	}
	const { EventPics } = require(nodeFile);
	const { EventPicsApi } = require(credentialFile);
	return {
		nodeTypes: { [NODE_TYPE]: new EventPics() },
		credentialTypes: { eventPicsApi: new EventPicsApi() },
	};
}

/** @param {string} value */
const byId = (value) => ({ __rl: true, mode: 'id', value });

/**
 * Photo > Upload parameters into the seeded event and album.
 * @param {import('n8n-workflow').INodeParameters} [options] the node's Options collection (e.g. `{ concurrency: 1 }`)
 * @returns {import('n8n-workflow').INodeParameters}
 */
function uploadParameters(options = {}) {
	return {
		resource: 'photo',
		operation: 'upload',
		simplify: false,
		event: byId(EVENT),
		album: byId(ALBUM),
		options,
	};
}

/** Temp folders made by this process; removed at exit, on Ctrl-C and on SIGTERM. */
const tempFolders = new Set();
let cleanupInstalled = false;

function removeTempFolders() {
	for (const folder of tempFolders) {
		fs.rmSync(folder, { recursive: true, force: true });
		tempFolders.delete(folder);
	}
}

/**
 * @param {string} label
 * @returns {string}
 */
function makeTempFolder(label) {
	if (!cleanupInstalled) {
		cleanupInstalled = true;
		process.once('exit', removeTempFolders);
		for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
			process.once(signal, () => {
				removeTempFolders();
				// exit() runs the harness's own exit hook, which removes its binary store
				process.exit(130);
			});
		}
	}
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), `eventpics-bench-${label}-`));
	tempFolders.add(folder);
	return folder;
}

/**
 * @param {string} folder
 */
function removeTempFolder(folder) {
	fs.rmSync(folder, { recursive: true, force: true });
	tempFolders.delete(folder);
}

/**
 * Writes a JPEG of exactly `bytes` bytes: a real small JPEG (EXIF capture time included) followed by
 * random bytes (decoders ignore what follows the end-of-image marker). Written in 4 MB steps, so a
 * 1 GB file never sits in memory.
 * @param {string} filePath
 * @param {number} bytes
 * @returns {Promise<{ path: string, size: number, sha256: string }>}
 */
async function writeJpeg(filePath, bytes) {
	const head = fs.readFileSync(JPEG_HEAD);
	const hash = crypto.createHash('sha256');
	const out = fs.createWriteStream(filePath);
	/** @param {Buffer} chunk */
	const write = (chunk) =>
		new Promise((resolve, reject) => {
			hash.update(chunk);
			out.write(chunk, (error) => (error ? reject(error) : resolve(undefined)));
		});
	const first = head.subarray(0, Math.min(head.length, bytes));
	await write(first);
	let left = bytes - first.length;
	const block = Buffer.allocUnsafe(4 * MB);
	while (left > 0) {
		const chunk = block.subarray(0, Math.min(block.length, left));
		crypto.randomFillSync(chunk);
		await write(chunk);
		left -= chunk.length;
	}
	await new Promise((resolve, reject) =>
		out.end((/** @type {any} */ error) => (error ? reject(error) : resolve(undefined))),
	);
	return { path: filePath, size: bytes, sha256: hash.digest('hex') };
}

/**
 * @typedef {object} ChildEmulator
 * @property {string} baseUrl
 * @property {string} storageUrl
 * @property {string} apiKey
 * @property {number} pid
 * @property {(path: string, method?: string) => Promise<any>} control a control API call (e.g. '/__control/uploads'), its JSON answer
 * @property {() => Promise<void>} stop SIGTERM to the child, then waits for its exit
 */

/**
 * Starts the emulator's CLI in its own process (so its memory is not counted in ours) on
 * ephemeral ports, with its files in `storageDir`.
 * @param {{ storageDir: string, latencyMs?: number, rateLimitPerSecond?: number }} options
 * @returns {Promise<ChildEmulator>}
 */
function startChildEmulator(options) {
	const cli = path.join(ROOT, 'test', 'tools', 'emulator', 'cli.js');
	const args = [
		cli,
		'--port',
		'0',
		'--storage-port',
		'0',
		'--storage-dir',
		options.storageDir,
		'--seed',
		'42',
	];
	if (options.latencyMs) args.push('--latency', String(options.latencyMs));
	if (options.rateLimitPerSecond) args.push('--rate-limit', String(options.rateLimitPerSecond));
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const { DEMO_API_KEY } = require('../emulator/seed');
	const exited = new Promise((resolve) => child.once('exit', resolve));
	return new Promise((resolve, reject) => {
		let text = '';
		const timer = setTimeout(
			() => fail(new Error(`The emulator did not start in 15 s:\n${text}`)),
			15000,
		);
		/** @param {Error} error */
		const fail = (error) => {
			clearTimeout(timer);
			child.kill('SIGTERM');
			reject(error);
		};
		/** @param {number | null} code */
		const early = (code) =>
			fail(new Error(`The emulator exited (${code}) before it was ready:\n${text}`));
		child.once('exit', early);
		/** @type {NonNullable<typeof child.stdout>} */ (child.stdout).on('data', (chunk) => {
			text += String(chunk);
			if (!text.includes('Press Ctrl-C')) return;
			const base = /Base URL[^\n]*?(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
			const storage = /Object storage:\s*(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
			if (!base || !storage)
				return fail(new Error(`Cannot read the emulator's addresses:\n${text}`));
			clearTimeout(timer);
			child.off('exit', early);
			const baseUrl = base[1];
			resolve({
				baseUrl,
				storageUrl: storage[1],
				apiKey: DEMO_API_KEY,
				pid: /** @type {number} */ (child.pid),
				control: async (controlPath, method = 'GET') => {
					const { request } = require('undici');
					const answer = await request(`${baseUrl}${controlPath}`, {
						method: /** @type {any} */ (method),
					});
					const text = await answer.body.text();
					if (answer.statusCode !== 200)
						throw new Error(`${method} ${controlPath} answered ${answer.statusCode}: ${text}`);
					return text === '' ? undefined : JSON.parse(text);
				},
				stop: async () => {
					if (child.exitCode === null) child.kill('SIGTERM');
					await exited;
				},
			});
		});
	});
}

/** RSS of this process in bytes. */
function rss() {
	return process.memoryUsage.rss();
}

/**
 * Samples this process's RSS every `everyMs` with a timer until stopped; returns the highest.
 * @param {number} [everyMs]
 */
function startRssSampler(everyMs = 20) {
	let peak = rss();
	let samples = 1;
	const timer = setInterval(() => {
		peak = Math.max(peak, rss());
		samples++;
	}, everyMs);
	return {
		stop() {
			clearInterval(timer);
			peak = Math.max(peak, rss());
			return { peak, samples };
		},
	};
}

/**
 * The kernel's record of this process's highest RSS (Linux VmHWM), reset by `resetPeakRss`.
 * @returns {number | undefined} bytes
 */
function kernelPeakRss() {
	try {
		const status = fs.readFileSync('/proc/self/status', 'utf8');
		const match = /VmHWM:\s+(\d+) kB/.exec(status);
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** Resets VmHWM to the current RSS (Linux: "5" to /proc/self/clear_refs). @returns {boolean} */
function resetPeakRss() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

/** Runs the garbage collector a few times when node runs with --expose-gc. @returns {Promise<boolean>} */
async function settle() {
	const gc = /** @type {undefined | (() => void)} */ (/** @type {any} */ (globalThis).gc);
	if (!gc) return false;
	for (let i = 0; i < 3; i++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return true;
}

/**
 * A plain-text table: columns as wide as their widest cell; the given columns right-aligned.
 * @param {string[]} headers
 * @param {Array<Array<string | number>>} rows
 * @param {number[]} [right]
 */
function formatTable(headers, rows, right = []) {
	const cells = rows.map((row) => row.map(String));
	const widths = headers.map((header, i) =>
		Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)),
	);
	/** @param {string[]} row */
	const line = (row) =>
		row
			.map((cell, i) => (right.includes(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
			.join(' | ')
			.trimEnd();
	return [line(headers), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join(
		'\n',
	);
}

/** @param {number} bytes */
const mb = (bytes) => bytes / MB;

module.exports = {
	ROOT,
	NODE_TYPE,
	MB,
	EVENT,
	ALBUM,
	loadCompiled,
	uploadParameters,
	makeTempFolder,
	removeTempFolder,
	writeJpeg,
	startChildEmulator,
	startRssSampler,
	kernelPeakRss,
	resetPeakRss,
	settle,
	rss,
	formatTable,
	mb,
};
