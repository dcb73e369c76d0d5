#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:n8n-network`: the network limits of this package in the real n8n app (Node 24), with
 * figures. Not part of `npm test` (it needs the n8n install of install.js and takes a few minutes).
 *
 *   1. a video of --mb MiB (default 80) read from disk by n8n's Read/Write Files node and uploaded
 *      with default options while the emulator's storage reads at --rate MiB/s (default 1):
 *      `n8n execute`, its time, tries, and the bytes stored (sha256)
 *   2. `n8n start`, then the credential test as the editor runs it on Save (POST /rest/credentials/test):
 *      a good key, http://example.com, an address without https://, a port where nothing listens,
 *      a silent server, an answer dripped at 1 byte/s, an endless answer: each message and its time
 *
 * Flags: --mb N, --rate N (MiB/s), --skip-upload, --skip-credential. Exit 0 when every check holds.
 */

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { mediaBytes } = require('../media-bytes');
const { ensureN8n } = require('./install');
const { installIntoUserFolder } = require('./community-install');
const { ownerSession } = require('./owner');
const n8n = require('./n8n');

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name, /** @type {number} */ fallback) => {
	const i = args.indexOf(`--${name}`);
	return i >= 0 ? Number(args[i + 1]) : fallback;
};

/** @param {string} message */
const say = (message) => process.stdout.write(`[n8n-network] ${message}\n`);

/**
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<[T, number]>}
 */
async function timed(work) {
	const started = Date.now();
	const value = await work();
	return [value, (Date.now() - started) / 1000];
}

/**
 * A workflow: manual trigger, Read/Write Files reads `folder/*.mp4`, EventPics uploads it (defaults).
 * @param {string} folder
 * @param {string} credentialId
 */
function videoWorkflow(folder, credentialId) {
	const credentials = { eventPicsApi: { id: credentialId, name: n8n.EMULATOR_CREDENTIAL.name } };
	return {
		id: 'eventpicsNetworkVideo1',
		name: 'EventPics network: one large video',
		active: false,
		settings: {},
		connections: {
			Start: { main: [[{ node: 'Read video', type: 'main', index: 0 }]] },
			'Read video': { main: [[{ node: 'Upload', type: 'main', index: 0 }]] },
		},
		nodes: [
			{ id: 'a', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b',
				name: 'Read video',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1,
				position: [200, 0],
				parameters: { operation: 'read', fileSelector: `${folder}/*.mp4`, options: {} },
			},
			{
				id: 'c',
				name: 'Upload',
				type: 'n8n-nodes-eventpics.eventPics',
				typeVersion: 1,
				position: [400, 0],
				credentials,
				parameters: {
					resource: 'photo',
					operation: 'upload',
					simplify: false,
					event: { __rl: true, mode: 'id', value: 'wedding-anna-ben' },
					album: { __rl: true, mode: 'id', value: 'booth' },
					binaryPropertyName: 'data',
					options: {},
				},
			},
		],
	};
}

/**
 * @param {import('./n8n').N8nServer} server
 * @param {string} cookie
 * @param {Record<string, unknown>} data
 */
async function credentialTest(server, cookie, data) {
	const response = await fetch(`${server.url}/rest/credentials/test`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Cookie: `n8n-auth=${cookie}` },
		body: JSON.stringify({ credentials: { id: '', name: 'probe', type: 'eventPicsApi', data } }),
	});
	const body = /** @type {any} */ (await response.json());
	return body.data ?? body;
}

async function main() {
	await ensureN8n();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-n8n-network-'));
	const userFolder = path.join(work, 'user');
	const folder = path.join(work, 'videos');
	fs.mkdirSync(folder, { recursive: true });
	const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
	/** @type {import('./n8n').N8nServer | undefined} */
	let server;
	try {
		const ports = { N8N_PORT: String(await n8n.freePort()), N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()) };
		const env = n8n.n8nEnv(userFolder, { N8N_RESTRICT_FILE_ACCESS_TO: folder, ...ports });
		await installIntoUserFolder(userFolder, path.join(work, 'log.txt'));
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);

		if (!args.includes('--skip-upload')) {
			const mb = flag('mb', 80);
			const rate = flag('rate', 1);
			const bytes = mediaBytes(mb * MiB, 'mp4'); // a video's first bytes: random ones alone are refused
			fs.writeFileSync(path.join(folder, 'ceremony.mp4'), bytes);
			const workflowFile = path.join(work, 'video.json');
			fs.writeFileSync(workflowFile, JSON.stringify(videoWorkflow(folder, n8n.EMULATOR_CREDENTIAL.id)));
			await n8n.mustRun(['import:workflow', `--input=${workflowFile}`], env);
			emulator.setOptions({ storageReadBytesPerSecond: rate * MiB });
			say(`upload: ${mb} MiB at ${rate} MiB/s, default options (n8n execute) ...`);
			const [run, seconds] = await timed(() =>
				n8n.runCli(['execute', '--id=eventpicsNetworkVideo1', '--rawOutput'], env),
			);
			const puts = emulator.requests.filter((r) => r.server === 'storage').length;
			const stored = emulator.uploads[0];
			const whole = stored?.sha256 === crypto.createHash('sha256').update(bytes).digest('hex');
			let outcome = `exit ${run.code}`;
			try {
				const execution = n8n.parseExecution(run.stdout);
				const item = execution.data.resultData.runData.Upload?.[0]?.data?.main?.[0]?.[0]?.json;
				const error = execution.data.resultData.error;
				outcome = item ? `statusCode ${item.statusCode}, attempts ${item.attempts}` : `error: ${error?.message}`;
			} catch {
				// no execution printed: the exit code says it
			}
			say(`upload: ${seconds.toFixed(1)} s, ${puts} PUT(s), ${outcome}, stored whole: ${whole}`);
			assert.ok(whole, 'the video did not arrive whole');
			emulator.setOptions({ storageReadBytesPerSecond: 0 });
		}

		if (!args.includes('--skip-credential')) {
			server = await n8n.startServer({
				env,
				port: Number(ports.N8N_PORT),
				brokerPort: Number(ports.N8N_RUNNERS_BROKER_PORT),
			});
			const cookie = await ownerSession(server.url);
			const free = await n8n.freePort();
			/** @type {Array<[string, Record<string, string>, string, Record<string, unknown>?]>} */
			const cases = [
				['good key', { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl }, 'OK'],
				['http://example.com', { apiKey: emulator.apiKey, baseUrl: 'http://example.com' }, 'Error'],
				['no https://', { apiKey: emulator.apiKey, baseUrl: 'api.eventpics.net' }, 'Error'],
				['nothing listens', { apiKey: emulator.apiKey, baseUrl: `http://127.0.0.1:${free}` }, 'Error'],
				['silent server', { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl }, 'Error', { kind: 'stall' }],
				['1 byte/s drip', { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl }, 'Error', { kind: 'drip', ms: 1000 }],
				['endless answer', { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl }, 'Error', { kind: 'endless' }],
			];
			for (const [label, data, expected, fault] of cases) {
				emulator.clearFaults();
				if (fault) emulator.addFault(/** @type {any} */ ({ endpoint: 'geteventsandalbums', ...fault }));
				const rss = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
				const [result, seconds] = await timed(() =>
					credentialTest(/** @type {any} */ (server), cookie, /** @type {any} */ (data)),
				);
				const after = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
				const grew = Math.round((Number(after) - Number(rss)) / 1024);
				say(`credential test, ${label}: ${seconds.toFixed(1)} s, RSS ${grew >= 0 ? '+' : ''}${grew} MiB: ${result.status}: ${result.message}`);
				assert.equal(result.status, expected, `${label}: ${JSON.stringify(result)}`);
				assert.ok(seconds < 30, `${label} took ${seconds} s`);
			}
		}
	} finally {
		await server?.stop();
		await emulator.close();
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
