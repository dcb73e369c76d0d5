#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run n8n`: try the node in the real n8n editor, on this machine only.
 *
 *   - installs the pinned n8n and Node 24 into the cache folder on first use (about 3 GB, ~7 min)
 *   - installs this package (its current build) into the n8n user folder as the Community Nodes
 *     panel does
 *   - starts the EventPics emulator (http://127.0.0.1:8787) and imports a credential for it
 *   - imports the example workflows (again when one changed in examples/ since; the booth example
 *     watches <cache>/booth/outbox, which starts with the sample photos)
 *   - starts n8n on http://localhost:5678 with what the booth example needs (the Local File Trigger
 *     allowed, the booth folder readable: docs/running-at-scale.md); Ctrl-C stops n8n and the
 *     emulator
 *
 * Flags: --port <n> (default 5678), --fresh (start over with an empty n8n user folder).
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const {
	EMULATOR_TARGET,
	EXAMPLES,
	FOLDER: EXAMPLES_FOLDER,
	loadExample,
} = require('../examples/examples');
const { ensureN8n, log } = require('./install');
const { installIntoUserFolder } = require('./community-install');
const n8n = require('./n8n');
const paths = require('./paths');

const USAGE = 'Usage: npm run n8n [-- --port 5678] [--fresh]';

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = { port: 5678, fresh: false, help: false };
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--port') options.port = Number(argv[++i]);
		else if (argv[i] === '--fresh') options.fresh = true;
		else if (argv[i] === '--help' || argv[i] === '-h') options.help = true;
		else throw new Error(`Unknown argument ${argv[i]}\n${USAGE}`);
	}
	if (!Number.isInteger(options.port) || options.port <= 0)
		throw new Error(`--port needs a port number\n${USAGE}`);
	return options;
}

/**
 * Imports each example this user folder does not have as shipped now: new ones, and those whose
 * file in examples/ changed since their last import (the import replaces that workflow, so your
 * edits of an unchanged example stay).
 * @param {NodeJS.ProcessEnv} env
 * @param {string} boothFolder
 * @returns {Promise<{ added: string[], updated: string[] }>} the examples imported now
 */
async function importExamples(env, boothFolder) {
	const marker = path.join(paths.userFolder, '.eventpics-examples.json');
	// before: the names imported (a list); now: each name with the hash of the file imported
	const read = fs.existsSync(marker) ? JSON.parse(fs.readFileSync(marker, 'utf8')) : {};
	/** @type {Record<string, string>} */
	const done = Array.isArray(read) ? Object.fromEntries(read.map((name) => [name, ''])) : read;
	const result = { added: /** @type {string[]} */ ([]), updated: /** @type {string[]} */ ([]) };
	for (const { name } of EXAMPLES) {
		const shipped = fs.readFileSync(path.join(EXAMPLES_FOLDER, `${name}.json`));
		const hash = crypto.createHash('sha256').update(shipped).digest('hex');
		if (done[name] === hash) continue;
		const file = path.join(paths.userFolder, `example-${name}.json`);
		fs.writeFileSync(
			file,
			JSON.stringify(
				loadExample(name, {
					boothFolder,
					target: EMULATOR_TARGET,
					credential: n8n.EMULATOR_CREDENTIAL,
				}),
			),
		);
		await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		fs.rmSync(file);
		(name in done ? result.updated : result.added).push(name);
		done[name] = hash;
	}
	fs.writeFileSync(marker, JSON.stringify(done));
	return result;
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.help) return console.log(USAGE);
	if (!(await n8n.portIsFree(options.port)))
		throw new Error(`Port ${options.port} is taken: stop what runs there or use --port`);

	await ensureN8n();
	if (options.fresh) fs.rmSync(paths.userFolder, { recursive: true, force: true });
	fs.mkdirSync(paths.userFolder, { recursive: true });
	const logFile = path.join(paths.cacheRoot, 'n8n.log');
	fs.writeFileSync(logFile, '');

	log(
		'installing this package into the n8n user folder (npm pack, as the Community Nodes panel does)',
	);
	const installed = await installIntoUserFolder(paths.userFolder, logFile);

	const fixed = (await n8n.portIsFree(8787)) && (await n8n.portIsFree(8788));
	const emulator = await startEmulator({
		...(fixed ? { port: 8787, storagePort: 8788 } : {}),
		storageDir: path.join(paths.cacheRoot, 'emulator-files'),
		loadExisting: true,
	});

	const boothRoot = path.join(paths.cacheRoot, 'booth');
	const boothFolder = path.join(boothRoot, 'outbox');
	const samplesFolder = path.join(paths.REPO_ROOT, 'test', 'fixtures', 'samples');
	if (!fs.existsSync(boothFolder)) {
		fs.mkdirSync(boothFolder, { recursive: true });
		for (const name of fs.readdirSync(samplesFolder).filter((n) => /\.(jpg|png|heic)$/.test(n))) {
			fs.copyFileSync(path.join(samplesFolder, name), path.join(boothFolder, name));
		}
	}
	// what the booth example needs (docs/running-at-scale.md), and n8n's own folder for files
	const booth = n8n.boothSettings(boothRoot);
	const env = n8n.n8nEnv(paths.userFolder, {
		...booth,
		N8N_RESTRICT_FILE_ACCESS_TO: `${boothRoot};~/.n8n-files`,
	});

	/** @type {import('./n8n').N8nServer | undefined} */
	let server;
	const stop = async () => {
		if (server) await server.stop();
		await emulator.close();
	};
	try {
		const credentialFile = path.join(paths.userFolder, 'eventpics-credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		fs.rmSync(credentialFile);
		const imported = await importExamples(env, boothFolder);
		if (imported.updated.length > 0)
			log(`examples changed in examples/, imported again: ${imported.updated.join(', ')}`);

		const brokerPort = (await n8n.portIsFree(options.port + 1))
			? options.port + 1
			: await n8n.freePort();
		log(`starting n8n ${paths.N8N_VERSION} (log: ${logFile})`);
		server = await n8n.startServer({ env, port: options.port, brokerPort, logFile });
	} catch (error) {
		await stop();
		throw error;
	}
	console.log(
		[
			'',
			`n8n ${paths.N8N_VERSION} with n8n-nodes-eventpics ${installed.version}: http://localhost:${options.port}`,
			'  First visit: create the owner account (it stays in this local n8n).',
			`  Credential "${n8n.EMULATOR_CREDENTIAL.name}" points at the emulator: ${emulator.baseUrl}`,
			`  Example workflows: ${EXAMPLES.map((e) => `"${e.title}"`).join(', ')}`,
			`  Set for the booth example: ${Object.keys(booth)
				.map((name) => `${name}=${env[name]}`)
				.join(' ')}`,
			`  The booth example watches ${boothFolder}: open it and Publish (or "Execute workflow" for`,
			'  one photo), then drop a photo into that folder, e.g.',
			`    cp ${path.join(samplesFolder, 'booth-0001.jpg')} ${boothFolder}/booth-$(date +%s).jpg`,
			'  Each photo goes up once, whole; the ones there already go up when the trigger starts.',
			`  Uploaded photos: ${emulator.baseUrl}/`,
			`  n8n user folder: ${paths.userFolder} (npm run n8n -- --fresh starts over)`,
			'Press Ctrl-C to stop n8n and the emulator.',
		].join('\n'),
	);
	let stopping = false;
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
		process.on(signal, () => {
			if (stopping) return;
			stopping = true;
			console.log(`\n${signal}: stopping n8n and the emulator...`);
			stop().then(
				() => process.exit(0),
				() => process.exit(1),
			);
		});
	}
	server.child.on('exit', (code) => {
		if (stopping) return;
		console.error(`n8n stopped by itself (exit ${code}); see ${logFile}`);
		emulator.close().finally(() => process.exit(1));
	});
}

main().catch((error) => {
	console.error(`[n8n-app] ${error && error.message}`);
	process.exit(1);
});
