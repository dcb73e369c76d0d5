#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run demo`: the main job of this package, end to end, in about ten seconds.
 *
 *   1. builds dist/ when the sources changed (the same as `npm run build`)
 *   2. starts the EventPics emulator on 127.0.0.1 (unless EVENTPICS_API_KEY is set)
 *   3. runs a workflow in the real n8n engine: EventPics "Event > Get Many" lists the key's events
 *   4. picks the event and album (the first event with albums, its first album; or --event/--album)
 *   5. runs a second workflow: the sample photos of test/fixtures/samples/ into EventPics "Photo > Upload"
 *   6. prints a table of what was uploaded and where to see it, then stops everything
 *
 * The node is the compiled one from dist/, loaded with require, as n8n loads it.
 *
 * Real service instead of the emulator: set EVENTPICS_API_KEY (and EVENTPICS_BASE_URL if it is not
 * https://api.eventpics.net). Nothing else changes.
 */

// The engine harness must come first: it prepares n8n's environment before anything uses it.
const engine = require('../engine');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { ensureBuilt, ROOT } = require('./build');
const { formatTable, humanSize } = require('./table');

const NODE_TYPE = 'n8n-nodes-eventpics.eventPics';
const SAMPLES = path.join(__dirname, '..', '..', 'fixtures', 'samples');
const PRODUCTION_BASE_URL = 'https://api.eventpics.net';

const USAGE = `Usage: npm run demo [-- --keep] [--event <linkId>] [--album <albumId>] [--files <folder>]

  --keep            keep the emulator running after the upload, so you can open its page (Ctrl-C stops it)
  --event <linkId>  upload into this event (default: the first event that has albums)
  --album <albumId> upload into this album (default: the event's first album; "" for none)
  --files <folder>  upload the photos of this folder instead of test/fixtures/samples/

Against the real EventPics instead of the local emulator:
  EVENTPICS_API_KEY=<your key> npm run demo            (EVENTPICS_BASE_URL defaults to ${PRODUCTION_BASE_URL})`;

/**
 * @typedef {object} DemoOptions
 * @property {boolean} [keep]
 * @property {string} [event]
 * @property {string} [album]
 * @property {string} [files]
 * @property {string} [apiKey] the real service's key (from EVENTPICS_API_KEY); none = emulator
 * @property {string} [baseUrl] (from EVENTPICS_BASE_URL)
 * @property {boolean} [build] default true: build dist/ when stale
 * @property {import('../emulator').Emulator} [emulator] use this running emulator (tests); not closed
 * @property {{ log: (line: string) => void }} [io]
 * @property {number} [startedAt] when the demo started (ms), for the total time; default now
 *
 * @typedef {object} DemoRow
 * @property {string} file
 * @property {string} album
 * @property {string} type
 * @property {number} bytes
 * @property {number | string} attempts
 * @property {string} takenAt
 * @property {string} result 'uploaded' or the error
 *
 * @typedef {object} DemoResult
 * @property {string} baseUrl
 * @property {{ linkId: string, title: string }} event
 * @property {{ id: string, title: string } | null} album
 * @property {DemoRow[]} rows
 * @property {string[]} files the local files sent
 * @property {number} failed
 * @property {string | undefined} pageUrl the emulator's page
 * @property {import('../emulator').Emulator | undefined} emulator the emulator still running (with --keep)
 */

/**
 * @param {string[]} argv
 * @returns {DemoOptions & { help?: boolean }}
 */
function parseArgs(argv) {
	/** @type {DemoOptions & { help?: boolean }} */
	const options = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${arg} needs a value\n\n${USAGE}`);
			return next;
		};
		if (arg === '--help' || arg === '-h') options.help = true;
		else if (arg === '--keep') options.keep = true;
		else if (arg === '--event') options.event = value();
		else if (arg === '--album') options.album = value();
		else if (arg === '--files') options.files = value();
		else if (arg === '--no-build') options.build = false;
		else throw new Error(`Unknown argument ${arg}\n\n${USAGE}`);
	}
	return options;
}

/**
 * The photos to upload: the image and video files of a folder, by name.
 * @param {string} folder
 * @returns {string[]}
 */
function listPhotos(folder) {
	const wanted = /\.(jpe?g|png|heic|heif|gif|webp|tiff?|mp4|mov)$/i;
	const files = fs
		.readdirSync(folder)
		.filter((name) => wanted.test(name))
		.sort()
		.map((name) => path.join(folder, name));
	if (files.length === 0) throw new Error(`No photos (jpg, png, heic, ...) in ${folder}`);
	return files;
}

/**
 * Loads the compiled node and credential from dist/, as n8n does.
 * @returns {{ nodeTypes: Record<string, any>, credentialTypes: Record<string, any> }}
 */
function loadCompiled() {
	const { EventPics } = require(path.join(ROOT, 'dist', 'nodes', 'EventPics', 'EventPics.node.js'));
	const { EventPicsApi } = require(
		path.join(ROOT, 'dist', 'credentials', 'EventPicsApi.credentials.js'),
	);
	return {
		nodeTypes: { [NODE_TYPE]: new EventPics() },
		credentialTypes: { eventPicsApi: new EventPicsApi() },
	};
}

/** @param {any} error */
function errorText(error) {
	if (!error) return 'unknown error';
	const message = String(error.message ?? error);
	return error.description ? `${message} (${error.description})` : message;
}

/**
 * @param {string} value
 */
const byId = (value) => ({ __rl: true, mode: 'id', value });

/**
 * Runs the demo. Returns what was uploaded; the emulator it started is closed unless `keep`.
 * @param {DemoOptions} options
 * @returns {Promise<DemoResult>}
 */
async function runDemo(options = {}) {
	const io = options.io ?? { log: (line) => process.stdout.write(`${line}\n`) };
	const started = options.startedAt ?? Date.now();
	if (options.build !== false) io.log(`[1/5] ${ensureBuilt(io)}`);
	const { nodeTypes, credentialTypes } = loadCompiled();

	const real = Boolean(options.apiKey);
	/** @type {import('../emulator').Emulator | undefined} */
	let emulator = options.emulator;
	const ownEmulator = !real && !emulator;
	if (ownEmulator) {
		emulator = await startEmulator(options.keep ? await preferredPorts() : {});
	}
	const apiKey = real ? String(options.apiKey) : /** @type {any} */ (emulator).apiKey;
	const baseUrl = real
		? (options.baseUrl || PRODUCTION_BASE_URL).replace(/\/+$/, '')
		: /** @type {any} */ (emulator).baseUrl;
	io.log(
		real
			? `[2/5] Using the real EventPics at ${baseUrl} (EVENTPICS_API_KEY is set)`
			: `[2/5] EventPics emulator running at ${baseUrl} (demo key, 127.0.0.1 only)`,
	);
	const credentials = { eventPicsApi: { apiKey, baseUrl } };

	try {
		const listed = await engine.runWorkflow({
			nodes: [
				{ name: 'Start', type: engine.START_NODE_TYPE },
				{
					name: 'List events',
					type: NODE_TYPE,
					parameters: { resource: 'event', operation: 'getAll', returnAll: true },
				},
			],
			connections: { Start: { main: [[{ node: 'List events', type: 'main', index: 0 }]] } },
			nodeTypes,
			credentialTypes,
			credentials,
		});
		if (listed.error) throw new Error(`Listing the events failed: ${errorText(listed.error)}`);
		/** @type {Array<{ linkId: string, title: string, albums: Array<{ id: string, title: string }> }>} */
		const events = listed.outputs['List events'].map((item) => /** @type {any} */ (item.json));
		io.log(`[3/5] The key has ${events.length} event(s):`);
		for (const e of events) {
			const albums = e.albums.map((a) => `${a.title} (${a.id})`).join(', ') || 'no albums';
			io.log(`        ${e.linkId.padEnd(20)} ${e.title}: ${albums}`);
		}

		const event = options.event
			? events.find((e) => e.linkId === options.event)
			: (events.find((e) => e.albums.length > 0) ?? events[0]);
		if (!event) {
			throw new Error(
				options.event
					? `The key has no event "${options.event}"`
					: 'The key has no events: create one in the EventPics app first',
			);
		}
		const album =
			options.album === ''
				? null
				: options.album
					? event.albums.find((a) => a.id === options.album)
					: (event.albums[0] ?? null);
		if (album === undefined)
			throw new Error(`The event "${event.linkId}" has no album "${options.album}"`);

		const files = listPhotos(options.files ? path.resolve(options.files) : SAMPLES);
		io.log(
			`[4/5] Uploading ${files.length} photo(s) into "${event.title}" / ${album ? `"${album.title}"` : 'no album'} through the real n8n engine`,
		);
		const uploadStarted = Date.now();
		const uploaded = await engine.runWorkflow({
			nodes: [
				{ name: 'Start', type: engine.START_NODE_TYPE },
				{
					name: 'Upload to EventPics',
					type: NODE_TYPE,
					onError: 'continueRegularOutput',
					parameters: {
						resource: 'photo',
						operation: 'upload',
						simplify: false,
						event: byId(event.linkId),
						album: byId(album ? album.id : ''),
						binaryPropertyName: 'data',
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Upload to EventPics', type: 'main', index: 0 }]] } },
			inputItems: files.map((file) => ({
				json: { file: path.basename(file) },
				binary: { data: engine.binaryFromFile(file) },
			})),
			nodeTypes,
			credentialTypes,
			credentials,
		});
		if (uploaded.error) throw new Error(`The upload workflow failed: ${errorText(uploaded.error)}`);
		const seconds = ((Date.now() - uploadStarted) / 1000).toFixed(1);

		/** @type {DemoRow[]} */
		const rows = uploaded.outputs['Upload to EventPics'].map((item, index) => {
			const json = /** @type {any} */ (item.json);
			const source = files[/** @type {any} */ (item.pairedItem)?.item ?? index];
			if (json.outcome === 'failed' || json.error) {
				return {
					file: path.basename(source),
					album: album ? album.id : '-',
					type: '-',
					bytes: fs.statSync(source).size,
					attempts: '-',
					takenAt: '-',
					result: `FAILED: ${json.error}`,
				};
			}
			return {
				file: json.fileName,
				album: json.albumId ?? '(none)',
				type: json.contentType,
				bytes: json.bytes,
				attempts: json.attempts,
				takenAt:
					typeof json.takenAtMs === 'number'
						? new Date(json.takenAtMs).toISOString().replace('.000Z', 'Z')
						: 'not sent',
				result: json.outcome,
			};
		});
		const failed = rows.filter((row) => row.result.startsWith('FAILED')).length;
		io.log('');
		io.log(
			formatTable(
				['file', 'album', 'type', 'size', 'attempts', 'taken at', 'result'],
				rows.map((r) => [
					r.file,
					r.album,
					r.type,
					humanSize(r.bytes),
					r.attempts,
					r.takenAt,
					r.result,
				]),
				{ right: [3, 4] },
			),
		);
		io.log('');
		io.log(
			`[5/5] ${rows.length - failed} of ${files.length} uploaded in ${seconds} s (whole demo ${((Date.now() - started) / 1000).toFixed(1)} s).`,
		);

		let pageUrl;
		if (emulator) {
			pageUrl = `${emulator.baseUrl}/`;
			const check = verifyStored(emulator, files, event.linkId, album ? album.id : null);
			io.log(`      Emulator check: ${check}`);
			io.log(
				options.keep || !ownEmulator
					? `      See the photos: ${pageUrl}`
					: `      The photos were on ${pageUrl} (run \`npm run demo -- --keep\` to keep that page open).`,
			);
		} else {
			io.log(`      Open "${event.title}" in the EventPics app to see them.`);
		}
		return {
			baseUrl,
			event,
			album,
			rows,
			files,
			failed,
			pageUrl,
			emulator: options.keep ? emulator : undefined,
		};
	} finally {
		if (ownEmulator && !options.keep && emulator) await emulator.close();
	}
}

/**
 * Compares what the emulator stored with the local files (same bytes, same event and album).
 * @param {import('../emulator').Emulator} emulator
 * @param {string[]} files
 * @param {string} linkId
 * @param {string | null} albumId
 * @returns {string}
 */
function verifyStored(emulator, files, linkId, albumId) {
	const problems = [];
	for (const file of files) {
		const sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
		const stored = emulator.uploads.find(
			(u) => u.sha256 === sha256 && u.linkId === linkId && u.albumId === albumId,
		);
		if (!stored) problems.push(path.basename(file));
	}
	return problems.length === 0
		? `all ${files.length} file(s) stored byte for byte in ${linkId}/${albumId ?? '(no album)'}`
		: `NOT stored as sent: ${problems.join(', ')}`;
}

/** Fixed ports 8787/8788 for --keep (an address to bookmark), any free ports when they are taken. */
async function preferredPorts() {
	const net = require('node:net');
	/** @param {number} port */
	const free = (port) =>
		new Promise((resolve) => {
			const server = net.createServer();
			server.once('error', () => resolve(false));
			server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
		});
	return (await free(8787)) && (await free(8788)) ? { port: 8787, storagePort: 8788 } : {};
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.help) {
		console.log(USAGE);
		return;
	}
	options.startedAt = Date.now() - process.uptime() * 1000;
	options.apiKey = process.env.EVENTPICS_API_KEY || undefined;
	options.baseUrl = process.env.EVENTPICS_BASE_URL || undefined;
	if (options.baseUrl && !options.apiKey) {
		throw new Error(
			'EVENTPICS_BASE_URL is set but EVENTPICS_API_KEY is not: set both to use the real service, or neither for the emulator',
		);
	}
	const result = await runDemo(options);
	if (result.emulator) {
		console.log('\nThe emulator keeps running; press Ctrl-C to stop it.');
		const stop = () => {
			/** @type {any} */ (result.emulator)
				.close()
				.finally(() => process.exit(result.failed > 0 ? 1 : 0));
		};
		process.once('SIGINT', stop);
		process.once('SIGTERM', stop);
		return;
	}
	process.exitCode = result.failed > 0 ? 1 : 0;
}

module.exports = { runDemo, parseArgs, listPhotos, SAMPLES, USAGE };

if (require.main === module) {
	main().catch((error) => {
		console.error(`\nDemo failed: ${error && error.message}`);
		process.exit(1);
	});
}
