// @ts-check
'use strict';

/**
 * What n8n uses while the night runs, sampled from /proc (Linux): the resident memory (VmRSS) of
 * `n8n start` and every process under it (the task runner), the bytes they read (`rchar`: every
 * read(), from files, the page cache and sockets alike; `read_bytes`: what the disk had to deliver),
 * and the size of n8n's binary data folder (`du -sb`, off the event loop).
 *
 * Each n8n start is a generation: read counters are per process, so they are summed over every
 * process seen in a generation (a child that ends keeps its last count), and compared only within
 * one generation.
 */

const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');

/**
 * @typedef {object} Sample
 * @property {number} at Date.now()
 * @property {number} generation which n8n start (1, 2, ...; 0 while none runs)
 * @property {number} rss bytes, n8n and its children
 * @property {number} mainRss bytes, the `n8n start` process alone
 * @property {number} rchar bytes read so far in this generation
 * @property {number} readBytes bytes read from the disk so far in this generation
 * @property {number} processes how many processes n8n had
 * @property {number} binary bytes in the binary data folder (last measure)
 */

/** @param {string} file */
function readOrEmpty(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

/** @param {number} root @returns {number[]} root and every process under it */
function processTree(root) {
	/** @type {Map<number, number[]>} */
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readOrEmpty(`/proc/${entry}/stat`);
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'
		const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		if (!Number.isInteger(ppid)) continue;
		children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
	}
	const tree = [];
	for (const queue = [root]; queue.length > 0;) {
		const pid = /** @type {number} */ (queue.shift());
		tree.push(pid);
		queue.push(...(children.get(pid) ?? []));
	}
	return tree;
}

/** @param {string} text @param {string} field */
const kbField = (text, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
/** @param {number} root @returns {number} the resident memory of `root` and every process under it, in bytes */
function treeRss(root) {
	let rss = 0;
	for (const pid of processTree(root))
		rss += kbField(readOrEmpty(`/proc/${pid}/status`), 'VmRSS') * 1024;
	return rss;
}

/** @param {string} text @param {string} field */
const ioField = (text, field) => Number(new RegExp(`^${field}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

/**
 * @param {string} dir
 * @returns {Promise<number>} bytes under `dir` (0 when it does not exist)
 */
function folderBytes(dir) {
	return new Promise((resolve) =>
		execFile('du', ['-sb', dir], (error, stdout) =>
			resolve(error ? 0 : Number(stdout.split('\t')[0]) || 0),
		),
	);
}

/**
 * The guards (`limits`) stop a night that would take the machine down with it: n8n's memory, its
 * binary data folder, and the free space left on that folder's disk.
 * @param {{ binaryDir: string, intervalMs?: number, binaryEveryMs?: number,
 *   limits?: { rss: number, binary: number, freeDisk?: number }, onLimit?: (message: string) => void }} options
 */
function startSampler({
	binaryDir,
	intervalMs = 500,
	binaryEveryMs = 2000,
	limits = { rss: Infinity, binary: Infinity },
	onLimit = () => undefined,
}) {
	/** @type {Sample[]} */
	const samples = [];
	let root = 0;
	let generation = 0;
	let starts = 0;
	/** @type {Map<number, { rchar: number, readBytes: number }>} */
	let counters = new Map();
	let binary = 0;
	let warned = false;

	const limit = (/** @type {string} */ message) => {
		if (warned) return;
		warned = true;
		onLimit(message);
	};

	const sample = () => {
		let rss = 0;
		let mainRss = 0;
		let processes = 0;
		if (root) {
			for (const pid of processTree(root)) {
				const status = readOrEmpty(`/proc/${pid}/status`);
				if (!status) continue;
				processes++;
				rss += kbField(status, 'VmRSS') * 1024;
				if (pid === root) mainRss = kbField(status, 'VmRSS') * 1024;
				const io = readOrEmpty(`/proc/${pid}/io`);
				if (io)
					counters.set(pid, { rchar: ioField(io, 'rchar'), readBytes: ioField(io, 'read_bytes') });
			}
		}
		let rchar = 0;
		let readBytes = 0;
		for (const c of counters.values()) {
			rchar += c.rchar;
			readBytes += c.readBytes;
		}
		samples.push({ at: Date.now(), generation, rss, mainRss, rchar, readBytes, processes, binary });
		if (rss > limits.rss)
			limit(`n8n's memory passed ${Math.round(limits.rss / 2 ** 20)} MiB (the guard)`);
	};

	let measuring = false;
	const measureBinary = async () => {
		if (measuring) return;
		measuring = true;
		binary = await folderBytes(binaryDir);
		measuring = false;
		if (binary > limits.binary)
			limit(
				`n8n's binary data folder passed ${Math.round(limits.binary / 2 ** 30)} GiB (the guard)`,
			);
	};

	const timer = setInterval(sample, intervalMs);
	const binaryTimer = setInterval(() => void measureBinary(), binaryEveryMs);
	return {
		samples,
		/** Follows another n8n start from now on (0: none runs). @param {number} pid */
		watch: (pid) => {
			sample();
			root = pid;
			generation = pid ? ++starts : 0;
			counters = new Map();
			sample();
		},
		stop: async () => {
			clearInterval(timer);
			clearInterval(binaryTimer);
			sample();
		},
	};
}

module.exports = { startSampler, folderBytes, processTree, treeRss };
