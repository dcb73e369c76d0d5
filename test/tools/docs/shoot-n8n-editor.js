#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Screenshots of the real n8n editor for the README (needs the cached n8n of `npm run n8n`).
 * Sets up a throw-away n8n user folder with the package installed as the Community Nodes panel
 * does, the emulator credential and the examples, creates the owner account through n8n's REST API
 * on 127.0.0.1, then opens each example on the canvas with headless Chromium, and the booth
 * example's upload after a run from the editor (one photo copied into the folder while "Execute
 * workflow" listens: a run from the editor takes the trigger's first event):
 *   test/tools/docs/n8n-photo-booth-folder.png, n8n-ai-agent-tools.png, n8n-upload-node.png
 * and the guest form example's last page after a guest sent a photo and a text file:
 *   test/tools/docs/n8n-guest-form-ending.png
 * `node test/tools/docs/shoot-n8n-editor.js`
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { EMULATOR_TARGET, EXAMPLES, loadExample } = require('../examples/examples');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const { ownerSession } = require('../n8n-app/owner');
const { launchBrowser } = require('./browser');
const { executeWorkflowOnEvent } = require('../editor/ui');

async function main() {
	await ensureN8n();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-shots-'));
	const userFolder = path.join(work, 'user');
	const logFile = path.join(work, 'log.txt');
	const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
	/** @type {import('../n8n-app/n8n').N8nServer | undefined} */
	let server;
	const browser = await launchBrowser();
	try {
		await installIntoUserFolder(userFolder, logFile);
		const booth = path.join(work, 'booth', 'outbox');
		fs.mkdirSync(booth, { recursive: true });
		const samples = path.join(__dirname, '..', '..', 'fixtures', 'samples');
		// what the booth example needs: the Local File Trigger allowed, the booth folder readable, ...
		const env = n8n.n8nEnv(userFolder, n8n.boothSettings(path.dirname(booth)));
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		for (const { name } of EXAMPLES) {
			const file = path.join(work, `${name}.json`);
			fs.writeFileSync(
				file,
				JSON.stringify(
					loadExample(name, {
						boothFolder: booth,
						target: EMULATOR_TARGET,
						credential: n8n.EMULATOR_CREDENTIAL,
					}),
				),
			);
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		}
		const form = loadExample('form-to-album', { target: EMULATOR_TARGET });
		await n8n.mustRun(['publish:workflow', `--id=${form.id}`], env);
		server = await n8n.startServer({
			env,
			port: await n8n.freePort(),
			brokerPort: await n8n.freePort(),
			logFile,
		});
		const cookie = await ownerSession(server.url);

		const context = await browser.newContext({
			viewport: { width: 1360, height: 820 },
			deviceScaleFactor: 1,
		});
		await context.addCookies([{ name: 'n8n-auth', value: cookie, url: server.url }]);
		const page = await context.newPage();
		for (const name of ['photo-booth-folder', 'ai-agent-tools']) {
			const { id } = loadExample(name);
			await page.goto(`${server.url}/workflow/${id}`, { waitUntil: 'networkidle' });
			await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
			await page.waitForTimeout(1500);
			await page.keyboard.press('Escape');
			// one step out, so the canvas's floating buttons do not cover the lowest nodes
			await page.keyboard.press('-');
			await page.waitForTimeout(800);
			const out = path.join(__dirname, `n8n-${name}.png`);
			await page.screenshot({ path: out });
			console.log(out);
		}

		const { id: boothId } = loadExample('photo-booth-folder');
		await page.goto(`${server.url}/workflow/${boothId}`, { waitUntil: 'networkidle' });
		const upload = page
			.locator('[data-test-id="canvas-node"]', { hasText: 'Upload to EventPics' })
			.first();
		await upload.waitFor({ timeout: 60_000 });
		// run it as a user does: "Execute workflow" listens to the folder, the booth writes a photo
		await executeWorkflowOnEvent(page, () =>
			fs.copyFileSync(path.join(samples, 'booth-0001.jpg'), path.join(booth, 'booth-0001.jpg')),
		);
		if (emulator.uploads.length !== 1)
			throw new Error(`the editor run uploaded ${emulator.uploads.length} photos, not 1`);
		await upload.dblclick();
		// the upload takes the event and album picked in Keep new photos, by expression
		await page.getByText('EventPics: 1 file uploaded.').first().waitFor({ timeout: 30_000 });
		await page.waitForTimeout(1000);
		const out = path.join(__dirname, 'n8n-upload-node.png');
		await page.screenshot({ path: out });
		console.log(out);

		// a guest sends a photo and a text file through the form example
		const guest = await browser.newPage({ viewport: { width: 900, height: 200 } });
		const formPath = form.nodes.find((/** @type {any} */ n) => n.name === 'Photo form').parameters
			.options.path;
		await guest.goto(`${server.url}/form/${formPath}`, { waitUntil: 'networkidle' });
		const notes = path.join(work, 'notes.txt');
		fs.writeFileSync(notes, 'not a photo');
		await guest
			.locator('input[type=file]')
			.first()
			.setInputFiles([path.join(samples, 'first-dance.heic'), notes]);
		await guest.locator('button[type=submit]').first().click();
		await guest.getByText('Not every file arrived').first().waitFor({ timeout: 60_000 });
		const ending = path.join(__dirname, 'n8n-guest-form-ending.png');
		await guest.screenshot({ path: ending });
		console.log(ending);
	} finally {
		await browser.close();
		if (server) await server.stop();
		await emulator.close();
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
