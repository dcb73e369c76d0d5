// @ts-check
'use strict';

/**
 * Runs the cached n8n (see install.js): CLI commands and the server, with an environment that keeps
 * it local (127.0.0.1, no telemetry, no version or template calls) and a fixed encryption key, so
 * credentials imported with `n8n import:credentials` can be read by the server later.
 */

const crypto = require('node:crypto');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const paths = require('./paths');

/** Encrypts the credentials of the local demo user folders only; never use it for real data. */
const LOCAL_ENCRYPTION_KEY = 'eventpics-local-n8n-demo-key';

/** The emulator's credential (id and name): the tools import it and pick it in the examples, which name none. */
const EMULATOR_CREDENTIAL = { id: 'eventpicsEmulator1', name: 'EventPics (local emulator)' };

/**
 * @param {string} userFolder
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
function n8nEnv(userFolder, extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [k, v] of Object.entries(process.env))
		if (!/^(npm_|N8N_|NODE_OPTIONS$)/i.test(k)) env[k] = v;
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: LOCAL_ENCRYPTION_KEY,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_SECURE_COOKIE: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		...extra,
	};
}

/**
 * The n8n settings the booth example needs, as docs/running-at-scale.md ("A photo booth all night")
 * tells operators to set them, so the tiers run what the docs say: the Local File Trigger allowed
 * (NODES_EXCLUDE), the booth folder readable (N8N_RESTRICT_FILE_ACCESS_TO, there `/srv/booth`, here
 * `boothRoot`), binary data on disk, a few production runs at once, unsaved runs' files pruned every
 * minute.
 * @param {string} boothRoot the folder above the booth's outbox (what Read/Write Files may read)
 * @returns {Record<string, string>}
 */
function boothSettings(boothRoot) {
	const doc = fs.readFileSync(path.join(paths.REPO_ROOT, 'docs', 'running-at-scale.md'), 'utf8');
	const section = doc.split(/^## /m).find((part) => part.startsWith('A photo booth all night'));
	/** @type {Record<string, string>} */
	const settings = {};
	for (const [, name, written] of (section ?? '').matchAll(/^\| `([A-Z0-9_]+)=([^`]*)` \|/gm)) {
		// as a shell passes it: a value the table writes in single quotes (JSON) without them
		const value = /^'[^']*'$/.test(written) ? written.slice(1, -1) : written;
		settings[name] = name === 'N8N_RESTRICT_FILE_ACCESS_TO' ? boothRoot : value;
	}
	const expected = [
		'NODES_EXCLUDE',
		'N8N_RESTRICT_FILE_ACCESS_TO',
		'N8N_DEFAULT_BINARY_DATA_MODE',
		'N8N_CONCURRENCY_PRODUCTION_LIMIT',
		'EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL',
	];
	assert.deepEqual(
		Object.keys(settings).sort(),
		expected.sort(),
		'docs/running-at-scale.md, "A photo booth all night": its settings table is not the one the tiers read',
	);
	return settings;
}

/**
 * `env` with a free N8N_PORT and N8N_RUNNERS_BROKER_PORT, unless it names them: every n8n process,
 * CLI commands included, starts a task broker (5679 by default in n8n 2.x), so two on one machine
 * would collide.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<NodeJS.ProcessEnv>}
 */
async function withOwnPorts(env) {
	return {
		...env,
		N8N_PORT: env.N8N_PORT ?? String(await freePort()),
		N8N_RUNNERS_BROKER_PORT: env.N8N_RUNNERS_BROKER_PORT ?? String(await freePort()),
	};
}

/**
 * Runs `n8n <args>`; resolves with its output whatever the exit code. Every n8n process gets ports
 * of its own (N8N_PORT, and N8N_RUNNERS_BROKER_PORT: n8n 2.x starts its task broker in CLI commands
 * too, on 5679 unless told otherwise, so two n8n processes on one machine would collide), unless
 * `env` names them.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
async function runCli(args, env) {
	const withPorts = await withOwnPorts(env);
	return await new Promise((resolve, reject) => {
		const child = spawn(paths.nodeBin, [paths.n8nBin, ...args], {
			env: withPorts,
			cwd: env.N8N_USER_FOLDER,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
	});
}

/**
 * Runs `n8n <args>` and fails with its output when it exits non-zero or on a signal.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
async function mustRun(args, env) {
	const result = await runCli(args, env);
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} exited with ${result.signal ?? result.code}\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
		);
	}
	return result;
}

/**
 * `n8n execute --id=<id> --rawOutput`, returning the execution it prints.
 *
 * With N8N_EXPRESSION_ENGINE=legacy: n8n 2.41.1's `execute` command ends with process.exit() without
 * disposing the default "vm" expression engine (only exitSuccessFully() does), while that engine's
 * isolate pool is creating the isolate that replaces the one the execution used; V8 then crashes in
 * that isolated-vm thread (SIGSEGV, gdb: Heap::MonotonicallyIncreasingTimeInMs via a freed platform).
 * The execution is complete and stored by then; it is an n8n CLI exit race, seen in 4 of 5 runs of
 * the empty-folder run, 0 of 5 with the legacy engine. The workflows run this way set no expression
 * on the EventPics node; `n8n start` (the form step) keeps n8n's default engine.
 * @param {string} id
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<any>}
 */
async function executeWorkflow(id, env) {
	const { stdout } = await mustRun(['execute', `--id=${id}`, '--rawOutput'], {
		...env,
		N8N_EXPRESSION_ENGINE: 'legacy',
	});
	return parseExecution(stdout);
}

/**
 * `n8n import:workflow` of a workflow object. n8n 2.0.x refuses a workflow without `versionId` or
 * `active` (a NOT NULL column there), so they are added when missing (`active: false`: publishing is
 * publishWorkflow's part).
 * @param {any} workflow
 * @param {string} file where to write it for the import
 * @param {NodeJS.ProcessEnv} env
 */
async function importWorkflow(workflow, file, env) {
	fs.writeFileSync(
		file,
		JSON.stringify({ versionId: crypto.randomUUID(), active: false, ...workflow }),
	);
	await mustRun(['import:workflow', `--input=${file}`], env);
}

/**
 * The execution ended without an error. n8n 2.0.x's `n8n execute` prints the status from before the
 * run was saved ("running", with `finished: true`); the other versions tested print "success".
 * @param {any} execution
 */
function assertSucceeded(execution) {
	assert.equal(execution.data.resultData.error, undefined);
	assert.equal(execution.finished, true);
	const quirk = paths.N8N_MAJOR === 2 && paths.N8N_VERSION.startsWith('2.0.');
	assert.equal(execution.status, quirk ? 'running' : 'success');
}

/**
 * Makes a workflow's triggers live at the next `n8n start`: `publish:workflow` where n8n has it
 * (2.x), `update:workflow --active=true` before (1.x).
 * @param {string} id
 * @param {NodeJS.ProcessEnv} env
 */
async function publishWorkflow(id, env) {
	const hasPublish = fs.existsSync(
		path.join(path.dirname(paths.n8nBin), '..', 'dist', 'commands', 'publish', 'workflow.js'),
	);
	await mustRun(
		hasPublish
			? ['publish:workflow', `--id=${id}`]
			: ['update:workflow', `--id=${id}`, '--active=true'],
		env,
	);
}

/**
 * Publishes a workflow through the REST API of a running n8n, as the editor's Save and Publish do:
 * `POST /rest/workflows` (n8n keeps that version in the workflow's history) and
 * `POST /rest/workflows/<id>/activate` with that version. For n8n 2.0.x, whose `publish:workflow`
 * looks for the version in a history that `import:workflow` does not write ("Version ... not
 * found"). The workflow gets a new id; returns it.
 * @param {string} url the server, e.g. http://127.0.0.1:5678
 * @param {string} cookie the owner's n8n-auth cookie (owner.js)
 * @param {any} workflow
 * @returns {Promise<string>}
 */
async function publishThroughRest(url, cookie, workflow) {
	const headers = { 'Content-Type': 'application/json', Cookie: `n8n-auth=${cookie}` };
	const { id, versionId, ...body } = workflow;
	(void id, versionId);
	const created = await fetch(`${url}/rest/workflows`, {
		method: 'POST',
		headers,
		// inactive, as the editor creates a workflow (a NOT NULL column in 2.0.x)
		body: JSON.stringify({ ...body, active: false }),
	});
	if (!created.ok)
		throw new Error(`POST /rest/workflows: ${created.status} ${await created.text()}`);
	const { data } = /** @type {any} */ (await created.json());
	const activated = await fetch(`${url}/rest/workflows/${data.id}/activate`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ versionId: data.versionId }),
	});
	if (!activated.ok)
		throw new Error(`activate ${data.id}: ${activated.status} ${await activated.text()}`);
	return data.id;
}

/**
 * Waits until a production webhook (or form) answers something else than 404, and returns that
 * answer. n8n 2.x registers published workflows after `n8n start` reports it is ready (its
 * workflow publication service works in the background), so the first requests can get a 404.
 * @param {string} url
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<{ response: Response, waitedMs: number }>}
 */
async function waitForWebhook(url, options = {}) {
	const started = Date.now();
	const deadline = started + (options.timeoutMs ?? 120_000);
	for (;;) {
		const response = await fetch(url);
		if (response.status !== 404 || Date.now() > deadline)
			return { response, waitedMs: Date.now() - started };
		await response.arrayBuffer();
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * The execution JSON that `n8n execute --rawOutput` prints after its log lines.
 * @param {string} stdout
 * @returns {any}
 */
function parseExecution(stdout) {
	const start = stdout.search(/^\{/m);
	if (start < 0) throw new Error(`n8n execute printed no execution data:\n${stdout.slice(-2000)}`);
	return JSON.parse(stdout.slice(start));
}

/**
 * Writes the emulator credential for `n8n import:credentials` (n8n encrypts it on import).
 * @param {string} file
 * @param {{ apiKey: string, baseUrl: string }} data
 */
function writeCredentialFile(file, data) {
	fs.writeFileSync(
		file,
		JSON.stringify([{ ...EMULATOR_CREDENTIAL, type: 'eventPicsApi', data }], null, 2),
	);
}

/** @param {number} port */
function portIsFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** @returns {Promise<number>} a free port on 127.0.0.1 */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
			server.close(() => resolve(port));
		});
	});
}

/**
 * @typedef {object} N8nServer
 * @property {string} url e.g. http://127.0.0.1:5678
 * @property {import('node:child_process').ChildProcess} child
 * @property {() => string} log everything it printed so far
 * @property {() => Promise<void>} stop SIGTERM, then SIGKILL after 20 s
 */

/**
 * Starts `n8n start` on `port` (and its task broker on `brokerPort`) and waits until it answers.
 * @param {{ env: NodeJS.ProcessEnv, port: number, brokerPort: number, logFile?: string, echo?: boolean, timeoutMs?: number }} options
 * @returns {Promise<N8nServer>}
 */
async function startServer(options) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {
		...options.env,
		N8N_PORT: String(options.port),
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
	};
	const child = spawn(paths.nodeBin, [paths.n8nBin, 'start'], {
		env,
		cwd: env.N8N_USER_FOLDER,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const take = (/** @type {Buffer} */ chunk) => {
		output += chunk;
		if (options.logFile) fs.appendFileSync(options.logFile, chunk);
		if (options.echo) process.stdout.write(chunk);
	};
	child.stdout?.on('data', take);
	child.stderr?.on('data', take);
	const url = `http://127.0.0.1:${options.port}`;
	let exited = false;
	child.on('exit', () => (exited = true));
	const stop = () =>
		new Promise((resolve) => {
			if (exited) return resolve(undefined);
			const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
			child.once('exit', () => {
				clearTimeout(timer);
				resolve(undefined);
			});
			child.kill('SIGTERM');
		}).then(() => undefined);
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	while (Date.now() < deadline) {
		if (exited) throw new Error(`n8n start exited early:\n${output.slice(-3000)}`);
		try {
			const response = await fetch(`${url}/healthz/readiness`);
			if (response.ok && /Editor is now accessible/.test(output))
				return { url, child, log: () => output, stop };
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	await stop();
	throw new Error(
		`n8n did not answer on ${url} within ${(options.timeoutMs ?? 120_000) / 1000} s:\n${output.slice(-3000)}`,
	);
}

module.exports = {
	LOCAL_ENCRYPTION_KEY,
	EMULATOR_CREDENTIAL,
	n8nEnv,
	boothSettings,
	runCli,
	withOwnPorts,
	mustRun,
	executeWorkflow,
	assertSucceeded,
	importWorkflow,
	publishWorkflow,
	publishThroughRest,
	waitForWebhook,
	parseExecution,
	writeCredentialFile,
	portIsFree,
	freePort,
	startServer,
	loadExample: require('../examples/examples').loadExample,
};
