#!/usr/bin/env node
// @ts-check
'use strict';

const path = require('node:path');
const { startEmulator } = require('./index');

/**
 * `node test/tools/emulator/cli.js` (npm run emulator): the EventPics emulator on 127.0.0.1.
 * Flags: --port <n> (service, default 8787), --storage-port <n> (default 8788), --ttl <seconds> (default 300),
 * --storage-dir <dir> (default .eventpics-emulator/ in the current folder; files there are listed again on restart),
 * --latency <ms>, --rate-limit <n per second>,
 * --api-rate-limit <n per second>, --fixed-rate-window <1: both limits count in fixed windows>, --storage-read-rate <bytes per second>,
 * --download-rate <bytes per second>, --seed <n>, --help.
 */

const USAGE = `Usage: node test/tools/emulator/cli.js [--port 8787] [--storage-port 8788] [--ttl 300]
       [--storage-dir .eventpics-emulator] [--latency 0] [--rate-limit 0] [--api-rate-limit 0] [--fixed-rate-window 0] [--seed N]
       [--storage-read-rate 0] [--download-rate 0]   (bytes per second; 0 = unlimited)`;

/** @param {string[]} argv */
function parseArgs(argv) {
	/** @type {Record<string, string>} */
	const flags = {};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--help' || a === '-h') return { help: true, flags };
		const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
		if (!m) throw new Error(`Unexpected argument: ${a}`);
		const value = m[2] ?? argv[++i];
		if (value === undefined) throw new Error(`Missing value for --${m[1]}`);
		flags[m[1]] = value;
	}
	return { help: false, flags };
}

/**
 * @param {Record<string, string>} flags
 * @param {string} name
 * @param {number} fallback
 */
function num(flags, name, fallback) {
	if (flags[name] === undefined) return fallback;
	const n = Number(flags[name]);
	if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0`);
	return n;
}

async function main() {
	const { help, flags } = parseArgs(process.argv.slice(2));
	if (help) {
		console.log(USAGE);
		return;
	}
	const known = [
		'port',
		'storage-port',
		'ttl',
		'storage-dir',
		'latency',
		'rate-limit',
		'api-rate-limit',
		'fixed-rate-window',
		'seed',
		'storage-read-rate',
		'download-rate',
	];
	for (const k of Object.keys(flags))
		if (!known.includes(k)) throw new Error(`Unknown flag --${k}\n${USAGE}`);
	const emu = await startEmulator({
		port: num(flags, 'port', 8787),
		storagePort: num(flags, 'storage-port', 8788),
		urlTtlSeconds: num(flags, 'ttl', 300) || 300,
		latencyMs: num(flags, 'latency', 0),
		rateLimitPerSecond: num(flags, 'rate-limit', 0),
		apiRateLimitPerSecond: num(flags, 'api-rate-limit', 0),
		fixedRateWindow: num(flags, 'fixed-rate-window', 0),
		storageReadBytesPerSecond: num(flags, 'storage-read-rate', 0),
		downloadBytesPerSecond: num(flags, 'download-rate', 0),
		seed: flags.seed === undefined ? undefined : num(flags, 'seed', 0),
		storageDir: path.resolve(flags['storage-dir'] ?? '.eventpics-emulator'),
		loadExisting: true,
	});
	console.log(
		[
			'EventPics emulator running (127.0.0.1 only)',
			`  Base URL (credential "Base URL"): ${emu.baseUrl}`,
			`  Object storage:                   ${emu.storageUrl}`,
			`  Demo API key:                     ${emu.apiKey}`,
			`  Page (events, albums, uploads):   ${emu.baseUrl}/`,
			`  Control API:                      ${emu.baseUrl}/__control/{faults,options,reset,uploads,requests}`,
			`  Stored files:                     ${emu.storageDir}`,
			'Press Ctrl-C to stop.',
		].join('\n'),
	);
	let stopping = false;
	const stop = (/** @type {string} */ signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the EventPics emulator.`);
		emu.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	// `npm run emulator` runs this under `sh -c`: npm passes its SIGTERM to the shell, which ends
	// without passing it on. Whatever ends the parent (npm, the shell, a terminal), stop with it.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) stop('Parent process ended');
	}, 250).unref();
}

main().catch((e) => {
	console.error(`eventpics-emulator: ${e && e.message}`);
	process.exit(1);
});
