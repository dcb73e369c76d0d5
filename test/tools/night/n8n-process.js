// @ts-check
'use strict';

/**
 * `n8n start` for the night: its own process group (so SIGKILL reaches n8n and the task runner it
 * starts, as a power cut or an OOM kill of the container would), its own ports, its output in a log
 * file. `kill()` is the crash; `stop()` the orderly end (SIGTERM, then SIGKILL after n8n's own
 * graceful shutdown time).
 */

const fs = require('node:fs');
const { spawn } = require('node:child_process');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');

/** Process groups of the n8n processes started here and not yet ended (for `killAll`). */
const live = new Set();

/**
 * Tracks a process started in its own group until it exits.
 * @param {import('node:child_process').ChildProcess} child
 */
function track(child) {
	live.add(child.pid);
	child.once('exit', () => live.delete(child.pid));
}

/** SIGKILL to every n8n process group still running (the runner's exit on Ctrl-C or SIGTERM). */
function killAll() {
	for (const pid of live) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
	live.clear();
}

/**
 * @typedef {object} N8nProcess
 * @property {number} pid the `n8n start` process (the group leader)
 * @property {string} url
 * @property {() => boolean} running
 * @property {() => Promise<void>} kill SIGKILL to the whole group; resolves once n8n is gone
 * @property {() => Promise<void>} stop SIGTERM, SIGKILL to the group after `graceMs`
 */

/**
 * Starts `n8n start` and waits until it answers and has published its active workflows (the log
 * line n8n prints once the editor is accessible; triggers are registered then).
 * @param {{ env: NodeJS.ProcessEnv, logFile: string, timeoutMs?: number, graceMs?: number }} options
 * @returns {Promise<N8nProcess>}
 */
async function startN8n({ env, logFile, timeoutMs = 180_000, graceMs = 40_000 }) {
	const withPorts = await n8n.withOwnPorts({ ...env, N8N_PORT: undefined });
	const url = `http://127.0.0.1:${withPorts.N8N_PORT}`;
	const out = fs.openSync(logFile, 'a');
	fs.writeSync(out, `\n==== n8n start on ${url} at ${new Date().toISOString()}\n`);
	// what this start prints comes after here
	const from = fs.fstatSync(out).size;
	const child = spawn(paths.nodeBin, [paths.n8nBin, 'start'], {
		env: withPorts,
		cwd: env.N8N_USER_FOLDER,
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	track(child);
	const pid = /** @type {number} */ (child.pid);
	/** @type {Promise<void>} */
	const exited = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
	let alive = true;
	child.once('exit', () => (alive = false));
	const group = (/** @type {NodeJS.Signals} */ signal) => {
		try {
			process.kill(-pid, signal);
		} catch {
			// the group is gone
		}
	};
	const kill = async () => {
		group('SIGKILL');
		await exited;
	};
	const stop = async () => {
		if (!alive) return group('SIGKILL');
		const timer = setTimeout(() => group('SIGKILL'), graceMs);
		child.kill('SIGTERM');
		await exited;
		clearTimeout(timer);
		// the task runner, should it outlive its n8n
		group('SIGKILL');
	};
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (!alive) {
			const tail = fs.readFileSync(logFile, 'utf8').slice(-3000);
			throw new Error(`n8n start exited before it answered:\n${tail}`);
		}
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			const printed = fs.readFileSync(logFile).subarray(from).toString('utf8');
			if (response.ok && printed.includes('Editor is now accessible')) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await kill();
			throw new Error(
				`n8n did not answer on ${url} within ${timeoutMs / 1000} s (log: ${logFile})`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return { pid, url, running: () => alive, kill, stop };
}

module.exports = { startN8n, track, killAll };
