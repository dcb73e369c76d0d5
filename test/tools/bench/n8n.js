#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench:n8n`: the node against the do-it-yourself HTTP Request pair, side by side in the
 * real n8n app (the pinned n8n of test/tools/n8n-app, with n8n's own nodes), against the emulator with
 * +50 ms on every request. Prints a table; informational only (exit code 1 only when a run broke).
 *
 *   node test/tools/bench/n8n.js [--files 200] [--mb 1] [--latency 50] [--repeat 3]
 *
 * Both workflows start with the same Manual Trigger and Read/Write Files from Disk node (the files
 * land in n8n's binary store, as in production); then
 *   node: EventPics > Photo > Upload with default settings
 *   pair: HTTP Request POST /getuploadurl, Merge (by position, with the files), HTTP Request PUT
 *         of the binary to {{ $json.uploadUrl }}
 * Times come from n8n's own run data (executionTime of each node; the pair is the sum of its three
 * nodes). Every run must store every file exactly once in the emulator, or the run counts as broken.
 * The raw two-step undici loop (raw.js) runs against the same emulator as the floor.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { rawUpload } = require('./raw');
const { median } = require('./throughput');
const {
	ALBUM,
	EVENT,
	MB,
	formatTable,
	makeTempFolder,
	startChildEmulator,
	writeJpeg,
} = require('./common');
const { nodeWorkflow, pairWorkflow } = require('./n8n-workflows');

const USAGE =
	'Usage: node test/tools/bench/n8n.js [--files 200] [--mb 1] [--latency 50] [--repeat 3]';

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = { files: 200, mb: 1, latency: 50, repeat: 3 };
	for (let i = 0; i < argv.length; i++) {
		const key = argv[i].replace(/^--/, '');
		if (!(key in options)) throw new Error(`Unknown argument ${argv[i]}\n${USAGE}`);
		const value = Number(argv[++i]);
		if (!Number.isFinite(value) || value < (key === 'latency' ? 0 : 1))
			throw new Error(`--${key} needs a number\n${USAGE}`);
		/** @type {any} */ (options)[key] = value;
	}
	return options;
}

const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
/** @param {number} ms */
const s = (ms) => (ms / 1000).toFixed(2);
/** @param {number[]} values */
const spread = (values) => `${s(Math.min(...values))}-${s(Math.max(...values))}`;

/**
 * One `n8n execute` of a workflow: the summed executionTime of the timed nodes.
 * @param {string} id
 * @param {string[]} timed
 * @param {NodeJS.ProcessEnv} env
 */
async function execute(id, timed, env) {
	const execution = n8n.parseExecution(
		(await n8n.mustRun(['execute', `--id=${id}`, '--rawOutput'], env)).stdout,
	);
	if (execution.status !== 'success') {
		const error = execution.data?.resultData?.error;
		throw new Error(`workflow ${id} ended ${execution.status}: ${error?.message ?? ''}`);
	}
	const runData = execution.data.resultData.runData;
	const perNode = timed.map((name) => {
		const run = runData[name]?.[0];
		if (!run) throw new Error(`node "${name}" did not run`);
		return Number(run.executionTime);
	});
	const last = runData[timed[timed.length - 1]][0].data.main[0];
	return { ms: perNode.reduce((a, b) => a + b, 0), perNode, items: last };
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	await ensureN8n();
	const work = makeTempFolder('n8n');
	const filesDir = path.join(work, 'files');
	fs.mkdirSync(filesDir);
	const emulator = await startChildEmulator({
		storageDir: path.join(work, 'emulator'),
		latencyMs: options.latency,
	});
	try {
		log(`writing ${options.files} files of ${options.mb} MB...`);
		/** @type {import('./raw').RawFile[]} */
		const rawFiles = [];
		for (let i = 0; i < options.files; i++) {
			const name = `bench-${String(i).padStart(4, '0')}.jpg`;
			const written = await writeJpeg(path.join(filesDir, name), Math.round(options.mb * MB));
			rawFiles.push({ path: written.path, name, size: written.size, contentType: 'image/jpeg' });
		}
		const userFolder = path.join(work, 'user');
		const env = n8n.n8nEnv(userFolder, {
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
			N8N_PORT: String(await n8n.freePort()),
			N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		});
		log(
			'installing the package into a fresh n8n user folder (npm pack, as the Community Nodes panel)...',
		);
		await installIntoUserFolder(userFolder, path.join(work, 'install.log'));
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		const glob = path.join(filesDir, '*.jpg');
		const workflows = {
			node: nodeWorkflow({ glob }),
			pair: pairWorkflow({ glob, baseUrl: emulator.baseUrl, apiKey: emulator.apiKey }),
		};
		for (const workflow of Object.values(workflows)) {
			const file = path.join(work, `${workflow.id}.json`);
			const { timed, ...importable } = workflow;
			void timed;
			fs.writeFileSync(file, JSON.stringify(importable));
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		}

		/** @param {string} label */
		const checkStoredOnce = async (label) => {
			const { uploads } = await emulator.control('/__control/uploads');
			const names = uploads.map((/** @type {any} */ u) => u.fileName).sort();
			const expected = rawFiles.map((f) => f.name).sort();
			if (JSON.stringify(names) !== JSON.stringify(expected))
				throw new Error(
					`${label}: the emulator holds ${uploads.length} files, not each of ${expected.length} once`,
				);
		};

		/** @type {Record<string, number[]>} */
		const times = { node: [], pair: [], raw16: [], rawAll: [] };
		/** @type {Record<string, number[][]>} */
		const parts = { pair: [] };
		for (let r = 0; r < options.repeat; r++) {
			for (const kind of /** @type {const} */ (['node', 'pair'])) {
				await emulator.control('/__control/reset', 'POST');
				const workflow = workflows[kind];
				const run = await execute(workflow.id, workflow.timed, env);
				await checkStoredOnce(kind);
				times[kind].push(run.ms);
				if (kind === 'pair') parts.pair.push(run.perNode);
				log(
					`  run ${r + 1}/${options.repeat}: ${kind} ${s(run.ms)} s (${run.perNode.map(s).join(' + ')})`,
				);
			}
			for (const [key, concurrency] of /** @type {const} */ ([
				['raw16', 16],
				['rawAll', options.files],
			])) {
				await emulator.control('/__control/reset', 'POST');
				const raw = await rawUpload({
					baseUrl: emulator.baseUrl,
					apiKey: emulator.apiKey,
					linkId: EVENT,
					albumId: ALBUM,
					files: rawFiles,
					concurrency,
				});
				await checkStoredOnce(key);
				times[key].push(raw.ms);
			}
			log(
				`  run ${r + 1}/${options.repeat}: raw 16 ${s(times.raw16[r])} s, raw ${options.files} ${s(times.rawAll[r])} s`,
			);
		}

		const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
		const pairParts = [0, 1, 2].map((i) => median(parts.pair.map((p) => p[i])));
		const rows = [
			[
				'HTTP Request pair (getuploadurl + Merge + PUT), all at once',
				s(m.pair),
				spread(times.pair),
				'1.00 (reference)',
				`median parts ${pairParts.map(s).join(' + ')} s`,
			],
			[
				'EventPics node, default settings',
				s(m.node),
				spread(times.node),
				`${(m.node / m.pair).toFixed(2)} <= 1.00`,
				`${(m.node / m.raw16).toFixed(2)}x raw at 16, ${(m.node / m.rawAll).toFixed(2)}x raw at ${options.files} (automatic: 4 up to 64)`,
			],
			[
				'raw two-step undici loop, 16 at once',
				s(m.raw16),
				spread(times.raw16),
				(m.raw16 / m.pair).toFixed(2),
				'Node 20, outside n8n',
			],
			[
				`raw two-step undici loop, ${options.files} at once`,
				s(m.rawAll),
				spread(times.rawAll),
				(m.rawAll / m.pair).toFixed(2),
				'Node 20, outside n8n',
			],
		];
		console.log(
			[
				`EventPics in the real n8n ${paths.N8N_VERSION} (Node ${paths.NODE_VERSION}), ${new Date().toISOString()}`,
				`${options.files} x ${options.mb} MB, emulator +${options.latency} ms per request, median of ${options.repeat}; ` +
					`${os.cpus().length} CPUs, load average ${os
						.loadavg()
						.map((l) => l.toFixed(2))
						.join(' ')} at the end`,
				'every run stored every file exactly once (checked in the emulator)',
				'',
				formatTable(['scenario', 'time s', 'spread s', 'x pair', 'notes'], rows, [1, 2, 3]),
			].join('\n'),
		);
		return 0;
	} finally {
		await emulator.stop();
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
