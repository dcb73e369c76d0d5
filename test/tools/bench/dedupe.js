#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run bench:dedupe`: Skip Files Uploaded Before with a long history, in the real n8n app (the
 * pinned n8n of test/tools/n8n-app, SQLite), against the emulator with +50 ms on every request.
 *
 *   node test/tools/bench/dedupe.js [--files 200] [--kb 32] [--history 100000] [--latency 50]
 *                                   [--repeat 3] [--dist DIR] [--only empty,new,known,off]
 *                                   [--cpu-prof DIR]
 *
 * Workflow: Manual Trigger, Read/Write Files from Disk (the files into n8n's binary store), EventPics
 * Photo > Upload with Skip Files Uploaded Before (the `off` scenario: without it). `n8n execute`
 * per run; the time is the upload node's executionTime from n8n's run data, the memory the peak RSS
 * (VmHWM) of the `n8n execute` process. Scenarios, each on a history set before the run:
 *   empty  no history, the files are new          new    `--history` files, the files are new
 *   known  `--history` files, the files among them off    the option off, no history
 * The history is written into n8n's `processed_data` row of the node (processed-data.js) as n8n's
 * store writes it: the md5 of each entry, oldest first. Entries per file follow the build: one (the
 * key) before issue 20, two since (its "checked" entry and its key, after the history's mark), and
 * from issue 29 two that name the account ("checked:<account>/<key>", "uploaded:<account>/<key>").
 * `--dist DIR` measures another build (e.g. main's) in place of this repo's dist/. After each run
 * the emulator must hold each new file once (nothing for `known`), or the run counts as broken.
 * `--cpu-prof DIR` writes a V8 CPU profile of each `n8n execute` into DIR (where a store call's time goes).
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { median } = require('./throughput');
const {
	ALBUM,
	EVENT,
	formatTable,
	makeTempFolder,
	startChildEmulator,
	writeJpeg,
} = require('./common');
const { nodeWorkflow } = require('./n8n-workflows');

/** The first entry of a history of issue 20's kind (the product's mark). */
const HISTORY_MARK = 'eventpics:history:2';
/**
 * In the account of every entry of the history (history.ts, FORMAT): issue 29's, one history per
 * node ('account'); issue 37's, one per workflow (scope 'workflow', its row's context empty).
 */
const HISTORY_FORMATS = { account: 'eventpics-history-3', workflow: 'eventpics-history-4' };

const SCENARIOS = ['empty', 'new', 'known', 'off'];
const USAGE =
	'Usage: node test/tools/bench/dedupe.js [--files 200] [--kb 32] [--history 100000] [--latency 50] [--repeat 3] [--dist DIR] [--only empty,new,known,off] [--cpu-prof DIR]';

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = {
		files: 200,
		kb: 32,
		history: 100_000,
		latency: 50,
		repeat: 3,
		dist: '',
		cpuProf: '',
		only: SCENARIOS,
	};
	for (let i = 0; i < argv.length; i++) {
		const key = argv[i].replace(/^--/, '');
		const value = argv[++i];
		if (key === 'dist') options.dist = path.resolve(value);
		else if (key === 'cpu-prof') options.cpuProf = path.resolve(value);
		else if (key === 'only') options.only = value.split(',').filter((s) => SCENARIOS.includes(s));
		else if (key in options && Number.isFinite(Number(value)))
			/** @type {any} */ (options)[key] = Number(value);
		else throw new Error(`Bad argument ${argv[i - 1]} ${value ?? ''}\n${USAGE}`);
	}
	return options;
}

const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const md5 = (/** @type {string} */ value) =>
	crypto.createHash('md5').update(value).digest('base64');
const s = (/** @type {number} */ ms) => (ms / 1000).toFixed(2);

/**
 * The kind of history the build writes, found by its marks in the compiled code wherever its files
 * live (they moved with issue 23): 'workflow' (issue 37), 'account' (issue 29), 'marked' (issue 20)
 * or 'keys' (before).
 * @param {string} dir
 * @returns {'workflow' | 'account' | 'marked' | 'keys'}
 */
function historyKind(dir) {
	const code = fs
		.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
		.map((entry) => fs.readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), 'utf8'))
		.join('\n');
	if (code.includes(HISTORY_FORMATS.workflow)) return 'workflow';
	if (code.includes(HISTORY_FORMATS.account)) return 'account';
	return code.includes(HISTORY_MARK) ? 'marked' : 'keys';
}

/**
 * The account in the entries since issue 29, derived as history.ts does (if they ever differ, the
 * `known` scenario finds no file known and the bench stops).
 * @param {string} baseUrl @param {string} apiKey @param {string} format its FORMAT
 */
function historyAccount(baseUrl, apiKey, format) {
	const keyHash = crypto.createHash('sha256').update(apiKey).digest('hex');
	return crypto
		.createHash('sha256')
		.update(`${format}\n${new URL(baseUrl).href}\n${keyHash}`)
		.digest('base64url')
		.slice(0, 22);
}

/**
 * The history's entries, oldest first, as the build writes them for these file keys.
 * @param {string[]} keys @param {'workflow' | 'account' | 'marked' | 'keys'} kind @param {string} account
 */
function historyEntries(keys, kind, account) {
	if (kind === 'keys') return keys;
	if (kind === 'marked') return [HISTORY_MARK, ...keys.flatMap((key) => [`checked:${key}`, key])];
	return keys.flatMap((key) => [`checked:${account}/${key}`, `uploaded:${account}/${key}`]);
}

/**
 * `n8n execute` with the peak RSS of its process. n8n 2.41.1 on Node 24.21 sometimes dies of a
 * signal while exiting: its printed execution still counts when it is complete.
 * @param {string} id @param {NodeJS.ProcessEnv} env @param {string} [cpuProf] a folder for a V8 CPU profile
 */
function execute(id, env, cpuProf = '') {
	const profile = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [];
	return new Promise((resolve, reject) => {
		const args = [...profile, paths.n8nBin, 'execute', `--id=${id}`, '--rawOutput'];
		const child = spawn(paths.nodeBin, args, {
			env,
			cwd: env.N8N_USER_FOLDER,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let peak = 0;
		const status = `/proc/${child.pid}/status`;
		const sample = setInterval(() => {
			try {
				const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(status, 'utf8'));
				if (match) peak = Math.max(peak, Number(match[1]) * 1024);
			} catch {
				// exited
			}
		}, 50);
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', () => undefined);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearInterval(sample);
			try {
				// the execution JSON, whatever n8n logged after it
				const start = stdout.search(/^\{/m);
				const end = stdout.lastIndexOf('\n}') + 2;
				resolve({ execution: JSON.parse(stdout.slice(start, end)), peak, code, signal });
			} catch (error) {
				reject(new Error(`n8n execute ended ${code ?? signal}: ${error}\n${stdout.slice(-1500)}`));
			}
		});
	});
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	await ensureN8n();
	const work = makeTempFolder('dedupe');
	const filesDir = path.join(work, 'files');
	fs.mkdirSync(filesDir);
	const emulator = await startChildEmulator({
		storageDir: path.join(work, 'emulator'),
		latencyMs: options.latency,
	});
	try {
		log(`writing ${options.files} files of ${options.kb} KB...`);
		/** @type {string[]} */
		const keys = [];
		for (let i = 0; i < options.files; i++) {
			const name = `dedupe-${String(i).padStart(4, '0')}.jpg`;
			await writeJpeg(path.join(filesDir, name), options.kb * 1024);
			const hex = crypto
				.createHash('sha256')
				.update(fs.readFileSync(path.join(filesDir, name)))
				.digest('hex');
			keys.push(`${EVENT}/${ALBUM}/sha256:${hex}`);
		}
		const userFolder = path.join(work, 'user');
		fs.mkdirSync(userFolder);
		const env = n8n.n8nEnv(userFolder, {
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
			N8N_PORT: String(await n8n.freePort()),
			N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		});
		log('installing the package into a fresh n8n user folder...');
		const { packageDir } = await installIntoUserFolder(userFolder, path.join(work, 'install.log'));
		if (options.dist) {
			fs.rmSync(path.join(packageDir, 'dist'), { recursive: true, force: true });
			fs.cpSync(options.dist, path.join(packageDir, 'dist'), { recursive: true });
		}
		const kind = historyKind(path.join(packageDir, 'dist', 'nodes'));
		const account = historyAccount(
			emulator.baseUrl,
			emulator.apiKey,
			kind === 'workflow' ? HISTORY_FORMATS.workflow : HISTORY_FORMATS.account,
		);
		const twoPerFile = kind !== 'keys';
		const cap = twoPerFile ? 200_000 : 100_000;
		const historyFiles = Math.min(options.history, twoPerFile ? Math.floor((cap - 1) / 2) : cap);
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		const glob = path.join(filesDir, '*.jpg');
		const workflows = { on: nodeWorkflow({ glob }), off: nodeWorkflow({ glob }) };
		workflows.on.id = 'benchDedupeOn';
		/** @type {any} */ (workflows.on.nodes[2].parameters).options = {
			skipUploaded: { settings: { identifyBy: 'content' } },
		};
		workflows.off.id = 'benchDedupeOff';
		for (const workflow of Object.values(workflows)) {
			const file = path.join(work, `${workflow.id}.json`);
			const { timed, ...importable } = workflow;
			void timed;
			fs.writeFileSync(file, JSON.stringify(importable));
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		}
		const database = path.join(userFolder, '.n8n', 'database.sqlite');
		const valueFile = path.join(work, 'value.json');
		const rowTool = path.join(__dirname, 'processed-data.js');
		const filler = Array.from(
			{ length: historyFiles },
			(_, i) => `${EVENT}/${ALBUM}/sha256:filler${i}`,
		);
		/** @param {string[] | undefined} history the file keys, oldest first */
		const setHistory = async (history) => {
			if ((await runNode([rowTool, database, 'clear', workflows.on.id], env)) !== 0)
				throw new Error('processed-data.js clear failed');
			if (!history) return;
			const data = historyEntries(history, kind, account).map(md5);
			fs.writeFileSync(valueFile, JSON.stringify({ mode: 'entries', data }));
			const args = [
				rowTool,
				database,
				'set',
				workflows.on.id,
				kind === 'workflow' ? '' : `n:${workflows.on.nodes[2].id}`,
				valueFile,
			];
			const result = await runNode(args, env);
			if (result !== 0) throw new Error(`processed-data.js set exited ${result}`);
		};
		const histories = {
			empty: undefined,
			new: filler,
			known: [...filler.slice(0, historyFiles - options.files), ...keys],
			off: undefined,
		};

		/** @type {Record<string, { ms: number[], rss: number[] }>} */
		const results = {};
		for (let r = 0; r < options.repeat; r++) {
			for (const scenario of options.only) {
				await emulator.control('/__control/reset', 'POST');
				await setHistory(histories[/** @type {keyof typeof histories} */ (scenario)]);
				const workflow = scenario === 'off' ? workflows.off : workflows.on;
				const { execution, peak } = /** @type {any} */ (
					await execute(workflow.id, env, options.cpuProf)
				);
				if (execution.status !== 'success')
					throw new Error(`${scenario}: the run ended ${execution.status}`);
				const run = execution.data.resultData.runData.Upload[0];
				const items = run.data.main[0];
				const { uploads } = await emulator.control('/__control/uploads');
				const skipped = items.filter(
					(/** @type {any} */ item) => item.json.outcome === 'skipped',
				).length;
				const expected = scenario === 'known' ? [0, options.files] : [options.files, 0];
				if (uploads.length !== expected[0] || skipped !== expected[1])
					throw new Error(
						`${scenario}: ${uploads.length} stored and ${skipped} skipped, not ${expected.join(' and ')}`,
					);
				(results[scenario] ??= { ms: [], rss: [] }).ms.push(Number(run.executionTime));
				results[scenario].rss.push(peak);
				log(
					`  run ${r + 1}/${options.repeat}: ${scenario} ${s(run.executionTime)} s, RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
				);
			}
		}

		const base = results.empty && median(results.empty.ms);
		const baseRss = results.empty && median(results.empty.rss);
		const targets = { new: 1.3, known: 0.6 };
		const rows = options.only.map((scenario) => {
			const { ms, rss } = results[scenario];
			const history = histories[/** @type {keyof typeof histories} */ (scenario)] ?? [];
			const entries = historyEntries(history, kind, account).length;
			const ratio = base ? median(ms) / base : undefined;
			const target = /** @type {Record<string, number>} */ (targets)[scenario];
			const rssUp = baseRss ? (median(rss) - baseRss) / 2 ** 20 : undefined;
			return [
				scenario,
				history.length ? `${history.length} (${entries})` : '0',
				s(median(ms)),
				`${s(Math.min(...ms))}-${s(Math.max(...ms))}`,
				ratio === undefined ? '' : `${ratio.toFixed(2)}${target ? ` <= ${target}` : ''}`,
				(median(rss) / 2 ** 20).toFixed(0),
				rssUp === undefined || scenario === 'empty'
					? ''
					: `${rssUp >= 0 ? '+' : ''}${rssUp.toFixed(0)} <= +150`,
			];
		});
		console.log(
			[
				`Skip Files Uploaded Before in the real n8n ${paths.N8N_VERSION} (Node ${paths.NODE_VERSION}, SQLite), ${new Date().toISOString()}`,
				`build: ${options.dist || 'this repo (dist/)'}, ${twoPerFile ? `two entries per file (${kind === 'workflow' ? 'per account, one history per workflow' : kind === 'account' ? 'per account' : 'with a mark'}), cap 200,000` : 'one entry per file, cap 100,000'}`,
				`${options.files} x ${options.kb} KB, emulator +${options.latency} ms per request, median of ${options.repeat}; ${os.cpus().length} CPUs, load average ${os
					.loadavg()
					.map((l) => l.toFixed(2))
					.join(' ')} at the end`,
				'every run stored each new file once and skipped each known one (checked in the emulator)',
				'',
				formatTable(
					[
						'scenario',
						'history files (entries)',
						'time s',
						'spread s',
						'x empty',
						'RSS MB',
						'RSS vs empty MB',
					],
					rows,
					[2, 3, 4, 5, 6],
				),
			].join('\n'),
		);
		return 0;
	} finally {
		await emulator.stop();
	}
}

/** Runs a script with the n8n install's Node. @param {string[]} args @param {NodeJS.ProcessEnv} env */
function runNode(args, env) {
	return new Promise((resolve) => {
		const child = spawn(paths.nodeBin, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
		child.on('close', (code) => resolve(code));
	});
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
