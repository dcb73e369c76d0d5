// @ts-check
'use strict';

/**
 * One booth night in the real n8n app: the workflow of a shape (workflows.js) published in a fresh
 * user folder with this package installed, `n8n start`, the booth writing (booth.js), n8n killed
 * with SIGKILL half-way while an upload is in flight and started again after a pause while the
 * booth goes on, then, once the album has settled, the album compared with the folder (compare.js)
 * and the figures (figures.js). Each step has a name; a failure says which step failed.
 */

const fs = require('node:fs');
const path = require('node:path');
const timers = require('node:timers/promises');
const { startEmulator } = require('../emulator');
const n8n = require('../n8n-app/n8n');
const paths = require('../n8n-app/paths');
const { EMULATOR_TARGET } = require('../examples/examples');
const { planNight, startBooth } = require('./booth');
const { startN8n } = require('./n8n-process');
const { startSampler, folderBytes } = require('./sampler');
const { session, runningExecutions, createCredential, publish } = require('./rest');
const { compareAlbum } = require('./compare');
const { marks, peak } = require('./figures');
const { loggedExecutions } = require('./executions');
const { boothWorkflow, triggerKind } = require('./workflows');

/**
 * @typedef {object} NightOptions
 * @property {string} shape example | schedule | <file>.json (workflows.js)
 * @property {'filesystem' | 'default'} binaryMode N8N_DEFAULT_BINARY_DATA_MODE
 * @property {number} photos
 * @property {number} seconds how long the booth writes
 * @property {number} downSeconds how long n8n stays down after the kill
 * @property {number} scheduleSeconds the interval given to every Schedule Trigger
 * @property {number} seed
 * @property {string} work a folder of this night's own (removed by the caller)
 * @property {string} nodesTemplate a user folder's .n8n/nodes with this package installed
 * @property {import('./workflows').ProductFeatures} product
 * @property {Record<string, string>} extraEnv
 * @property {(name: string) => string} tempName the booth's temporary name of a photo
 * @property {(line: string) => void} log
 */

/**
 * @typedef {object} NightResult
 * @property {string} label e.g. "example, filesystem"
 * @property {'filesystem' | 'default'} binaryMode
 * @property {string} trigger schedule | files | files+schedule
 * @property {import('./compare').AlbumComparison} album
 * @property {import('./figures').RunFigures[]} runs at 25, 50 and 100 %
 * @property {string | undefined} guard what stopped the night early (a guard of sampler.js, or n8n ending on its own)
 * @property {{ name: string, stored: boolean, atPhotos: number } | undefined} inFlightAtKill
 * @property {{ rss: number, mainRss: number, rssBefore50: number, rssAfter50: number, binary: number, binaryBefore50: number, binaryAfter50: number, database: number }} peaks
 * @property {{ photos: number, bytes: number, bytesAt50: number, bytesWhileDown: number }} folder the photos, their bytes, the bytes written by half-way and while n8n was down (killed until it answered again)
 * @property {{ executions: number, uploading: number, notSuccessful: number, largestPhoto: number, downMs: number, restartMs: number }} night
 */

class StepError extends Error {
	/** @param {string} step @param {unknown} cause */
	constructor(step, cause) {
		super(`step "${step}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
			cause,
		});
		this.step = step;
	}
}

/**
 * Polls `check` every `everyMs` until it returns a value other than undefined; fails with `what`
 * after `timeoutMs` (a guard against a hang, not a speed limit).
 * @template T
 * @param {() => T | undefined | Promise<T | undefined>} check
 * @param {{ what: string, timeoutMs: number, everyMs?: number, signal?: AbortSignal }} options
 * @returns {Promise<T>}
 */
async function waitFor(check, { what, timeoutMs, everyMs = 50, signal }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		signal?.throwIfAborted();
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await timers.setTimeout(everyMs);
	}
}

/**
 * The settings docs/running-at-scale.md gives a photo booth (the table of "A photo booth all
 * night", each row a `NAME=value`), read from the docs so that the night runs what operators are
 * told to set; the booth folder is the night's, the binary data mode the night's, `--env` adds to
 * them or overrides them.
 * @param {string} booth the booth's folder
 * @param {'filesystem' | 'default'} binaryMode
 * @returns {Record<string, string>}
 */
function boothSettings(booth, binaryMode) {
	const doc = fs.readFileSync(path.join(paths.REPO_ROOT, 'docs', 'running-at-scale.md'), 'utf8');
	const section = doc.split(/^## /m).find((part) => part.startsWith('A photo booth all night'));
	/** @type {Record<string, string>} */
	const settings = {};
	for (const [, name, written] of (section ?? '').matchAll(/^\| `([A-Z0-9_]+)=([^`]*)` \|/gm))
		// as a shell passes it: a value the table writes in single quotes without them
		settings[name] = /^'[^']*'$/.test(written) ? written.slice(1, -1) : written;
	if (!settings.NODES_EXCLUDE || !settings.N8N_RESTRICT_FILE_ACCESS_TO)
		throw new Error(
			'docs/running-at-scale.md, "A photo booth all night": no table of NODES_EXCLUDE and N8N_RESTRICT_FILE_ACCESS_TO found',
		);
	return {
		...settings,
		N8N_RESTRICT_FILE_ACCESS_TO: booth,
		N8N_DEFAULT_BINARY_DATA_MODE: binaryMode,
	};
}

/**
 * The night runs faster than a real one (a schedule's minute is `scheduleSeconds`), so n8n's
 * pruning of the files of finished runs, every so many minutes, runs as much faster: at the docs'
 * interval it would not come once in a short night, and the binary folder would look as if it grew
 * with the folder when it holds only the last interval's photos.
 * @param {Record<string, string>} settings @param {number} scheduleSeconds
 */
function compressedPruning(settings, scheduleSeconds) {
	const minutes = Number(settings.EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL);
	if (!Number.isFinite(minutes)) return settings;
	const compressed = ((minutes * scheduleSeconds) / 60).toFixed(3);
	return { ...settings, EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: compressed };
}

/** @param {any} request an emulator request log entry */
const isUploadActivity = (request) =>
	(request.server === 'storage' && request.method === 'PUT') ||
	(request.server === 'api' && request.url.startsWith('/getuploadurl'));

/**
 * @param {NightOptions} options
 * @returns {Promise<NightResult>}
 */
async function runNight(options) {
	const { work, log } = options;
	const label = `${path.basename(options.shape)}, ${options.binaryMode}`;
	const booth = path.join(work, 'booth');
	const userFolder = path.join(work, 'user');
	const logFile = path.join(work, 'n8n.log');
	fs.mkdirSync(booth, { recursive: true });
	fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
	const aborted = new AbortController();
	/** @type {Array<() => Promise<void> | void>} */
	const cleanups = [];
	/** @type {string | undefined} */
	let currentStep;
	/**
	 * @template T
	 * @param {string} name
	 * @param {() => Promise<T>} work
	 * @returns {Promise<T>}
	 */
	const step = async (name, work) => {
		currentStep = name;
		const started = Date.now();
		try {
			const value = await work();
			log(`  ok  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
			return value;
		} catch (error) {
			throw new StepError(name, aborted.signal.aborted ? aborted.signal.reason : error);
		}
	};

	try {
		const emulator = await step('emulator started', async () => {
			const emu = await startEmulator({ storageDir: path.join(work, 'emulator') });
			cleanups.push(() => emu.close());
			return emu;
		});
		const settings = {
			...compressedPruning(boothSettings(booth, options.binaryMode), options.scheduleSeconds),
			...options.extraEnv,
		};
		log(
			`      n8n settings: ${Object.entries(settings)
				.map(([k, v]) => `${k}=${v}`)
				.join(' ')}`,
		);
		const env = n8n.n8nEnv(userFolder, settings);
		const workflow = boothWorkflow({
			shape: options.shape,
			folder: booth,
			scheduleSeconds: options.scheduleSeconds,
			product: options.product,
		});
		const trigger = triggerKind(workflow);
		fs.cpSync(options.nodesTemplate, path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
		const sampler = startSampler({
			binaryDir: path.join(userFolder, '.n8n', 'storage'),
			// the binary folder may grow as far as the disk allows (a schedule that reads the whole
			// folder keeps a copy of it per saved run: some 50 GB over the full night)
			limits: { rss: 12 * 2 ** 30, binary: Infinity, freeDisk: 12 * 2 ** 30 },
			onLimit: (message) => aborted.abort(new Error(message)),
		});
		cleanups.push(() => sampler.stop());
		/** @type {import('./n8n-process').N8nProcess} */
		let server = await step('n8n start answers', async () => await startN8n({ env, logFile }));
		cleanups.push(() => server.stop());
		sampler.watch(server.pid);
		let cookie = await session(server.url);
		const workflowId = await step(
			`workflow "${workflow.name}" (${trigger}) published with its credential`,
			async () => {
				const credential = { ...n8n.EMULATOR_CREDENTIAL, type: 'eventPicsApi' };
				const id = await createCredential(server.url, cookie, {
					name: credential.name,
					type: credential.type,
					data: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
				});
				return await publish(server.url, cookie, workflow, { ...credential, id });
			},
		);

		const plan = planNight({
			photos: options.photos,
			seconds: options.seconds,
			seed: options.seed,
		});
		const night = startBooth({ folder: booth, plan, tempName: options.tempName });
		cleanups.push(() => night.stop());
		night.done.catch(() => undefined);
		log(
			`      the booth writes ${plan.length} photos (${mib(plan.reduce((s, p) => s + p.size, 0))}) over ${options.seconds} s`,
		);

		/** @type {{ killedAt: number, name: string, atPhotos: number } | undefined} */
		let kill;
		/** @type {{ startedAt: number, readyMs: number } | undefined} */
		let restart;
		/** @type {import('./booth').WrittenPhoto[]} */
		let photos = [];
		/** @type {string | undefined} a guard that stopped the night (sampler.js): the album is compared as it is */
		let guard;
		try {
			kill = await step('half-way: n8n killed (SIGKILL) while an upload is in flight', async () => {
				await Promise.race([night.halfway, abortedPromise(aborted.signal)]);
				const armed = performance.now();
				// the next PUT is held 2 s before the storage reads it: n8n is killed while it waits
				emulator.addFault({ endpoint: 'put', kind: 'delay', ms: 2000, times: 1 });
				const put = await waitFor(
					() =>
						emulator.requests.find(
							(r) =>
								r.server === 'storage' &&
								r.method === 'PUT' &&
								r.startedAt >= armed &&
								r.endedAt === undefined,
						),
					{
						what: 'an upload starting after half-way',
						timeoutMs: 180_000,
						everyMs: 20,
						signal: aborted.signal,
					},
				);
				if (!server.running()) throw new Error('n8n had ended on its own before the kill');
				const killedAt = Date.now();
				await server.kill();
				sampler.watch(0);
				const name = decodeURIComponent(put.url.split('?')[0].split('/').at(-1) ?? '');
				log(`      killed at ${night.written.length} photos, while "${name}" was being uploaded`);
				return { killedAt, name, atPhotos: night.written.length };
			});

			const { killedAt } = kill;
			restart = await step(
				`n8n started again ${options.downSeconds} s after the kill`,
				async () => {
					await timers.setTimeout(
						Math.max(0, killedAt + options.downSeconds * 1000 - Date.now()),
						undefined,
						{
							signal: aborted.signal,
						},
					);
					const started = Date.now();
					server = await startN8n({ env, logFile });
					sampler.watch(server.pid);
					cookie = await session(server.url);
					return { startedAt: started, readyMs: Date.now() - started };
				},
			);

			photos = await step('the booth finished', async () => {
				return await Promise.race([night.done, abortedPromise(aborted.signal)]);
			});

			await step('the album settled', async () => {
				const quietMs = trigger.includes('schedule')
					? Math.max(30_000, 3 * options.scheduleSeconds * 1000)
					: 15_000;
				/** @param {any} u */
				const inAlbum = (u) =>
					u.linkId === EMULATOR_TARGET.linkId && u.albumId === EMULATOR_TARGET.albumId;
				await waitFor(
					async () => {
						const activity = emulator.requests.filter(isUploadActivity);
						if (activity.some((r) => r.endedAt === undefined)) return undefined;
						const last = Math.max(0, ...activity.map((r) => r.endedAt ?? 0));
						const quiet = performance.now() - last;
						const stored = new Set(emulator.uploads.filter(inAlbum).map((u) => u.sha256));
						const complete = photos.every((p) => stored.has(p.sha256));
						// every photo whole in the album and nothing more coming, or nothing at all for long
						if (quiet < (complete ? quietMs : 4 * quietMs)) return undefined;
						if (!server.running()) throw new Error('n8n is not running');
						// a busy n8n may not answer this time: ask again at the next look
						const running = await runningExecutions(server.url, cookie).catch(() => -1);
						return running === 0 ? true : undefined;
					},
					{
						what: 'uploads kept going',
						timeoutMs: 20 * 60_000,
						everyMs: 500,
						signal: aborted.signal,
					},
				);
			});
		} catch (error) {
			if (aborted.signal.aborted)
				guard = String(aborted.signal.reason?.message ?? aborted.signal.reason);
			else if (!server.running())
				guard = `n8n ended on its own (${error instanceof Error ? error.message : error})`;
			else throw error;
			log(`      stopped early: ${guard}; the album is compared with what the booth wrote`);
			night.stop();
			photos = [...night.written];
		}

		await step('n8n stopped', async () => {
			if (guard) await server.kill();
			else await server.stop();
			sampler.watch(0);
			await sampler.stop();
		});

		const executions = loggedExecutions(path.join(userFolder, '.n8n'), workflowId);
		if (executions.length === 0)
			throw new StepError(
				"n8n's event log read",
				`it holds no execution of workflow ${workflowId}`,
			);

		const album = compareAlbum({
			photos,
			uploads: emulator.uploads.filter(
				(u) => u.linkId === EMULATOR_TARGET.linkId && u.albumId === EMULATOR_TARGET.albumId,
			),
			tempName: options.tempName,
		});

		const executionsDir = path.join(
			userFolder,
			'.n8n',
			'storage',
			'workflows',
			workflowId,
			'executions',
		);
		const uploads = workflow.nodes
			.filter((/** @type {any} */ n) => n.parameters?.operation === 'upload')
			.map((/** @type {any} */ n) => n.name);
		const runs = marks({
			executions,
			samples: sampler.samples,
			photos,
			heldAt: night.heldAt,
			uploads,
		});
		for (const run of runs) {
			const dir = path.join(executionsDir, run.id);
			run.binary = fs.existsSync(dir) ? await folderBytes(dir) : null;
		}
		if (photos.length < 4)
			throw new StepError('the booth wrote its first photos', guard ?? 'fewer than 4 photos');
		const half = photos[Math.ceil(photos.length / 2) - 1];
		const quarter = photos[Math.ceil(photos.length / 4) - 1];
		const databaseFile = path.join(userFolder, '.n8n', 'database.sqlite');
		return {
			label,
			binaryMode: options.binaryMode,
			trigger,
			album,
			runs,
			guard,
			inFlightAtKill: kill && {
				name: kill.name,
				atPhotos: kill.atPhotos,
				stored: album.perPhoto.some((p) => p.name === kill?.name && p.whole > 0),
			},
			peaks: {
				rss: peak(sampler.samples, 'rss'),
				mainRss: peak(sampler.samples, 'mainRss'),
				rssBefore50: peak(sampler.samples, 'rss', quarter.finishedAt, half.finishedAt),
				rssAfter50: peak(sampler.samples, 'rss', half.finishedAt),
				binary: peak(sampler.samples, 'binary'),
				binaryBefore50: peak(sampler.samples, 'binary', quarter.finishedAt, half.finishedAt),
				binaryAfter50: peak(sampler.samples, 'binary', half.finishedAt),
				database: fs.existsSync(databaseFile) ? fs.statSync(databaseFile).size : 0,
			},
			folder: {
				photos: photos.length,
				bytes: photos.reduce((sum, p) => sum + p.size, 0),
				bytesAt50: night.heldAt(half.finishedAt).bytes,
				bytesWhileDown:
					restart && kill
						? night.heldAt(restart.startedAt + restart.readyMs).bytes -
							night.heldAt(kill.killedAt).bytes
						: 0,
			},
			night: {
				executions: executions.length,
				uploading: executions.filter((e) => e.nodes.some((name) => uploads.includes(name))).length,
				notSuccessful: executions.filter((e) => e.status !== 'success').length,
				largestPhoto: Math.max(...photos.map((p) => p.size)),
				downMs: restart && kill ? restart.startedAt + restart.readyMs - kill.killedAt : 0,
				restartMs: restart?.readyMs ?? 0,
			},
		};
	} catch (error) {
		if (fs.existsSync(logFile)) {
			const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
			log(`      the last lines n8n printed (${currentStep ?? 'before the first step'}):\n${tail}`);
		}
		throw error instanceof StepError ? error : new StepError(currentStep ?? 'set-up', error);
	} finally {
		for (const cleanup of cleanups.reverse()) {
			try {
				await cleanup();
			} catch {
				// the next one still runs
			}
		}
	}
}

/** @param {AbortSignal} signal @returns {Promise<never>} rejects when the signal aborts */
function abortedPromise(signal) {
	return new Promise((_, reject) => {
		if (signal.aborted) reject(signal.reason);
		signal.addEventListener('abort', () => reject(signal.reason), { once: true });
	});
}

/** @param {number} bytes */
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

module.exports = { runNight, StepError, waitFor };
