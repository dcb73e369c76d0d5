#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Screenshots of the real n8n editor for the README (needs the cached n8n of `npm run n8n`).
 * Sets up a throw-away n8n user folder with the package installed as the Community Nodes panel
 * does, the emulator credential and the examples, creates the owner account through n8n's REST API
 * on 127.0.0.1, then opens each example on the canvas with headless Chromium, and the booth
 * example's EventPics node with its parameters:
 *   test/tools/docs/n8n-photo-booth-folder.png, n8n-ai-agent-tools.png, n8n-upload-node.png
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
		for (const name of fs.readdirSync(samples).filter((n) => /\.(jpg|png|heic)$/.test(n))) {
			fs.copyFileSync(path.join(samples, name), path.join(booth, name));
		}
		const env = n8n.n8nEnv(userFolder, { N8N_RESTRICT_FILE_ACCESS_TO: path.dirname(booth) });
		const credentialFile = path.join(work, 'credential.json');
		n8n.writeCredentialFile(credentialFile, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl });
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		for (const { name } of EXAMPLES) {
			const file = path.join(work, `${name}.json`);
			fs.writeFileSync(
				file,
				JSON.stringify(loadExample(name, { boothFolder: booth, target: EMULATOR_TARGET })),
			);
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		}
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
		// run it as a user does: "Execute workflow" reads the sample photos and uploads them to the emulator
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		const deadline = Date.now() + 60_000;
		while (emulator.uploads.length < 5 && Date.now() < deadline) await page.waitForTimeout(250);
		if (emulator.uploads.length < 5)
			throw new Error(`the editor run uploaded ${emulator.uploads.length} of 5 photos`);
		await page.waitForTimeout(1500);
		await upload.dblclick();
		// the event and album show their names, which the node's list search fetched from the emulator
		await page.locator('input[value="Anna & Ben\'s Wedding"]').first().waitFor({ timeout: 30_000 });
		await page.locator('input[value="Photo booth"]').first().waitFor({ timeout: 30_000 });
		await page.waitForTimeout(1000);
		const out = path.join(__dirname, 'n8n-upload-node.png');
		await page.screenshot({ path: out });
		console.log(out);
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
