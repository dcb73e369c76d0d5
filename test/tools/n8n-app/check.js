#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:n8n`: this package in the real n8n app (the pinned n8n of install.js), headless.
 * Not part of `npm test`: it needs the ~3 GB n8n install (made on first use, about 7 minutes).
 *
 *   1. installs the package into a fresh n8n user folder as the Community Nodes panel does
 *      (npm pack tarball into .n8n/nodes) and checks n8n loads the node and its AI tool variant
 *      with the parameters the AI agent example uses (`n8n export:nodes`)
 *   2. imports the emulator credential and the photo booth example (`n8n import:credentials`,
 *      `n8n import:workflow`; the booth folder points at a temp folder with the sample photos)
 *   3. `n8n execute --id`: the real Read/Write Files from Disk node reads the folder and the node
 *      uploads every photo into the emulator (checked byte for byte); a second run skips them all
 *      (Skip Files Uploaded Before, n8n's database); n8n killed in the middle of a run, and the next
 *      run stores every photo that had not arrived (crash-step.js); a run on an empty folder ends quietly
 *   4. publishes the form example, starts `n8n start`, submits the form with two photos as a
 *      browser does (multipart) and checks they arrived in the album
 * Exit code 0 when everything holds; it prints what it checked and how long each part took.
 */

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const execFile = require('node:util').promisify(require('node:child_process').execFile);
const { startEmulator } = require('../emulator');
const { ensureN8n } = require('./install');
const { installIntoUserFolder } = require('./community-install');
const n8n = require('./n8n');
const { EMULATOR_TARGET } = require('../examples/examples');
const paths = require('./paths');
const { crashStep } = require('./crash-step');
const { startSmtpSink } = require('./smtp-sink');
const { checkTriggerLoaded, publishTriggerExample, checkTriggerFires } = require('./trigger-check');

const SAMPLES = path.join(paths.REPO_ROOT, 'test', 'fixtures', 'samples');
const PHOTOS = fs.readdirSync(SAMPLES).filter((name) => /\.(jpg|png|heic)$/.test(name));

/** @param {string} file */
const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** @param {string} message */
function step(message) {
	process.stdout.write(`[test:n8n] ${message}\n`);
}

/**
 * @template T
 * @param {string} label
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function timed(label, work) {
	const started = Date.now();
	const result = await work();
	step(`ok  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
	return result;
}

/**
 * Outputs of one node in an execution printed by `n8n execute --rawOutput`.
 * @param {any} execution
 * @param {string} nodeName
 * @param {number} [output]
 * @returns {any[]}
 */
function outputOf(execution, nodeName, output = 0) {
	const runs = execution.data.resultData.runData[nodeName];
	assert.ok(runs, `node "${nodeName}" did not run`);
	return runs[runs.length - 1].data?.main?.[output] ?? [];
}

async function main() {
	const started = Date.now();
	await timed('n8n installed (cached after the first run)', async () => {
		const result = await ensureN8n();
		if (result.fresh) step(`installed n8n ${paths.N8N_VERSION} into ${paths.n8nDir}`);
	});
	await timed("the engine harness's deduplication store answers as n8n's own", async () => {
		const parity = path.join(paths.REPO_ROOT, 'test', 'tools', 'engine', 'dedup-parity.js');
		const { stdout } = await execFile(paths.nodeBin, [parity]);
		step(`    ${stdout.trim().split('\n').join('\n    ')}`);
	});

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-test-n8n-'));
	const userFolder = path.join(work, 'user');
	const booth = path.join(work, 'booth', 'outbox');
	fs.mkdirSync(booth, { recursive: true });
	const logFile = path.join(work, 'log.txt');
	const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
	const sink = await startSmtpSink();
	/** @type {import('./n8n').N8nServer | undefined} */
	let server;
	let passed = false;
	try {
		const env = n8n.n8nEnv(userFolder, { N8N_RESTRICT_FILE_ACCESS_TO: path.dirname(booth) });

		await timed(
			'package installed into .n8n/nodes like the Community Nodes panel, from npm pack',
			async () => {
				const installed = await installIntoUserFolder(userFolder, logFile);
				assert.ok(
					fs.existsSync(
						path.join(installed.packageDir, 'dist', 'nodes', 'EventPics', 'EventPics.node.js'),
					),
				);
			},
		);

		await timed(
			'n8n loads eventPics and eventPicsTool with the parameters the examples use',
			async () => {
				const out = path.join(work, 'nodes.json');
				await n8n.mustRun(['export:nodes', `--output=${out}`], env);
				/** @type {any[]} */
				const types = JSON.parse(fs.readFileSync(out, 'utf8'));
				const node = types.find((t) => t.name === 'n8n-nodes-eventpics.eventPics');
				const tool = types.find((t) => t.name === 'n8n-nodes-eventpics.eventPicsTool');
				assert.ok(node, 'n8n did not load n8n-nodes-eventpics.eventPics');
				assert.ok(tool, 'n8n did not make the AI tool variant n8n-nodes-eventpics.eventPicsTool');
				// what the test harness's toolVariant() redoes (test/tools/engine/ai-tool.js): n8n
				// adds nothing to a node with its own toolDescription, and takes away no parameter
				assert.deepEqual(
					tool.properties.map((/** @type {any} */ p) => p.name),
					node.properties.map((/** @type {any} */ p) => p.name),
					'n8n changed the parameters of the tool variant',
				);
				assert.deepEqual([tool.inputs, tool.outputs], [[], ['ai_tool']]);
				const known = (/** @type {any} */ type) =>
					new Set(type.properties.map((/** @type {any} */ p) => p.name));
				for (const [example, type] of [
					['photo-booth-folder', node],
					['google-drive-import', node],
					['form-to-album', node],
					['ai-agent-tools', tool],
				]) {
					for (const wfNode of n8n
						.loadExample(example)
						.nodes.filter((/** @type {any} */ n) => n.type === type.name)) {
						for (const name of Object.keys(wfNode.parameters)) {
							assert.ok(
								known(type).has(name),
								`${example}: "${wfNode.name}" sets "${name}", which ${type.name} does not have`,
							);
						}
					}
				}
				checkTriggerLoaded(types);
			},
		);

		await timed('credential and booth example imported', async () => {
			const credentialFile = path.join(work, 'credential.json');
			n8n.writeCredentialFile(credentialFile, {
				apiKey: emulator.apiKey,
				baseUrl: emulator.baseUrl,
			});
			await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
			const workflowFile = path.join(work, 'booth.json');
			fs.writeFileSync(
				workflowFile,
				JSON.stringify(
					n8n.loadExample('photo-booth-folder', { boothFolder: booth, target: EMULATOR_TARGET }),
				),
			);
			await n8n.mustRun(['import:workflow', `--input=${workflowFile}`], env);
		});

		const boothId = n8n.loadExample('photo-booth-folder').id;
		for (const photo of PHOTOS) fs.copyFileSync(path.join(SAMPLES, photo), path.join(booth, photo));
		await timed(
			`booth example: ${PHOTOS.length} photos read from the folder and uploaded (n8n execute)`,
			async () => {
				const execution = n8n.parseExecution(
					(await n8n.mustRun(['execute', `--id=${boothId}`, '--rawOutput'], env)).stdout,
				);
				assert.equal(execution.status, 'success');
				const uploaded = outputOf(execution, 'Upload to EventPics');
				assert.deepEqual(uploaded.map((item) => item.json.fileName).sort(), [...PHOTOS].sort());
				assert.equal(emulator.uploads.length, PHOTOS.length);
				for (const photo of PHOTOS) {
					const stored = emulator.uploads.find((u) => u.fileName === photo);
					assert.ok(stored, `${photo} did not arrive`);
					assert.equal(
						stored.sha256,
						sha256(path.join(SAMPLES, photo)),
						`${photo}: other bytes arrived`,
					);
					assert.equal(stored.linkId, 'wedding-anna-ben');
					assert.equal(stored.albumId, 'booth');
				}
				// the EXIF dates are read with luxon, which the package does not ship: n8n's own luxon
				/** @param {string} name */
				const takenAt = (name) =>
					uploaded.find((item) => item.json.fileName === name)?.json.takenAt;
				assert.equal(takenAt('booth-0001.jpg'), Date.parse('2026-06-20T18:30:05+02:00'));
				assert.equal(takenAt('booth-0002.jpg'), Date.parse('2026-06-20T18:31:40.250+02:00'));
			},
		);

		await timed(
			'booth example, second run: every photo skipped, nothing uploaded again',
			async () => {
				const execution = n8n.parseExecution(
					(await n8n.mustRun(['execute', `--id=${boothId}`, '--rawOutput'], env)).stdout,
				);
				const results = outputOf(execution, 'Upload to EventPics');
				assert.equal(results.length, PHOTOS.length);
				assert.ok(
					results.every((item) => item.json.outcome === 'skipped'),
					'a photo was not skipped',
				);
				assert.equal(emulator.uploads.length, PHOTOS.length);
			},
		);

		await timed(
			'n8n killed in the middle of a run (Skip Files Uploaded Before): the next run stores every photo that had not arrived',
			async () => {
				const counts = await crashStep({
					env,
					emulator,
					folder: path.join(path.dirname(booth), 'crash'),
					sample: path.join(SAMPLES, 'booth-0001.jpg'),
				});
				step(
					`    ${counts.arrived} of 24 had arrived at the kill: ${counts.skipped} skipped (recorded), ${counts.sentAgain} sent again (2xx not yet recorded), the other ${24 - counts.arrived} stored now`,
				);
			},
		);

		await timed('booth example, empty folder: the run ends quietly', async () => {
			for (const photo of PHOTOS) fs.rmSync(path.join(booth, photo));
			const execution = n8n.parseExecution(
				(await n8n.mustRun(['execute', `--id=${boothId}`, '--rawOutput'], env)).stdout,
			);
			assert.equal(execution.status, 'success');
			assert.equal(outputOf(execution, 'Read booth photos', 1)[0]?.json.error, 'No file(s) found');
			assert.equal(execution.data.resultData.runData['Upload to EventPics'], undefined);
			assert.equal(emulator.uploads.length, PHOTOS.length);
		});

		const form = n8n.loadExample('form-to-album', { target: EMULATOR_TARGET });
		await timed('form example imported and published', async () => {
			const workflowFile = path.join(work, 'form.json');
			fs.writeFileSync(workflowFile, JSON.stringify(form));
			await n8n.mustRun(['import:workflow', `--input=${workflowFile}`], env);
			await n8n.mustRun(['publish:workflow', `--id=${form.id}`], env);
		});
		await timed(
			'trigger example imported and published (its SMTP credential on a local sink)',
			async () => await publishTriggerExample({ env, work, smtpPort: sink.port, emulator }),
		);

		server = await timed('n8n start answers', async () =>
			n8n.startServer({
				env,
				port: await n8n.freePort(),
				brokerPort: await n8n.freePort(),
				logFile,
			}),
		);
		const formUrl = `${server.url}/form/${form.nodes.find((/** @type {any} */ n) => n.name === 'Photo form').parameters.options.path}`;
		await timed(
			'form example: a guest sends two photos through the form, both arrive in the album',
			async () => {
				// n8n answers before it has registered the published workflows' webhooks (seen once: a 404
				// for "GET share-photos" right after start), so the form page is asked for until it is
				// there, for at most 30 s; a page that never comes still fails below.
				let page = await fetch(formUrl);
				for (let tries = 0; page.status === 404 && tries < 30; tries++) {
					await new Promise((resolve) => setTimeout(resolve, 1000));
					page = await fetch(formUrl);
				}
				assert.equal(page.status, 200);
				const html = await page.text();
				assert.match(html, /Share your photos/);
				assert.match(
					html,
					/name='field-1'[^>]*accept='\.jpg, \.jpeg, \.png, \.heic, \.mp4, \.mov'[^>]*multiple/s,
				);
				const before = emulator.uploads.length;
				const body = new FormData();
				body.append('field-0', 'Guest');
				for (const photo of ['booth-0002.jpg', 'first-dance.heic']) {
					body.append('field-1', new Blob([fs.readFileSync(path.join(SAMPLES, photo))]), photo);
				}
				const answer = await fetch(formUrl, { method: 'POST', body });
				assert.equal(answer.status, 200, await answer.text());
				const arrived = emulator.uploads.slice(before);
				assert.deepEqual(arrived.map((u) => u.fileName).sort(), [
					'booth-0002.jpg',
					'first-dance.heic',
				]);
				for (const u of arrived) {
					assert.equal(u.sha256, sha256(path.join(SAMPLES, u.fileName)));
					assert.equal(`${u.linkId}/${u.albumId}`, 'wedding-anna-ben/booth');
				}
			},
		);
		await timed(
			'trigger example: an event added while n8n runs sends the organizer one mail at the next poll',
			async () =>
				await checkTriggerFires({
					server: /** @type {import('./n8n').N8nServer} */ (server),
					emulator,
					sink,
				}),
		);
		passed = true;
		step(
			`passed in ${((Date.now() - started) / 1000).toFixed(0)} s (n8n ${paths.N8N_VERSION}, Node ${paths.NODE_VERSION})`,
		);
	} finally {
		if (server) await server.stop();
		await emulator.close();
		await sink.close();
		if (!passed) step(`kept ${work} for a look (log.txt)`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(`[test:n8n] FAILED: ${error && error.stack}`);
	process.exitCode = 1;
});
