#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run test:editor`: the browser tier. The pinned n8n (Node 24, see test/tools/n8n-app) with this
 * package, driven in headless Chromium as a user does, asserting on what the page shows:
 * credential test (good key, wrong key, plain http:// Base URL), node search, the event list and
 * its search, the album list per event and after switching events, the error for an album of another
 * event and for a wrong key in a dropdown; then runs (checks-runs.js: an example as imported, its
 * event and album picked, run; uploaded/skipped/failed in the output pane; the guest form sent in
 * Chromium), the node's fields (checks-node.js: option names, placeholders, the AI tool as added)
 * and the expressions a run from the editor keeps (checks-expressions.js: the AI tool's `$fromAI()`
 * fields after a test run, the AI agent example's, Event and Album as expressions on the item).
 * Screenshots: test/tools/editor/screenshots/<check>.png (and fail-<check>.png when a check fails).
 * Not part of `npm test` (it needs the ~3 GB n8n install of `npm run n8n`).
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launchBrowser } = require('../docs/browser');
const { expressionChecks } = require('./checks-expressions');
const { nodeChecks } = require('./checks-node');
const { runChecks } = require('./checks-runs');
const { startApp, CREDENTIALS, WORKFLOWS } = require('./setup');
const ui = require('./ui');

const SHOTS = path.join(__dirname, 'screenshots');

/** `--only a,b`: run only the checks whose names contain one of these (while working on them). */
const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt > 0 ? String(process.argv[onlyAt + 1] ?? '').split(',') : undefined;

/** @type {Array<{ name: string, ok: boolean, ms: number, error?: string }>} */
const results = [];

async function main() {
	fs.mkdirSync(SHOTS, { recursive: true });
	const started = Date.now();
	const app = await startApp();
	console.log(
		`[test:editor] n8n at ${app.url} ready after ${((Date.now() - started) / 1000).toFixed(0)} s`,
	);
	const browser = await launchBrowser();
	try {
		const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
		await context.addCookies([{ name: 'n8n-auth', value: app.cookie, url: app.url }]);
		const page = await context.newPage();
		/**
		 * A check; its screenshot shows the editor, or the page the check returns (a guest's form).
		 * @param {string} name @param {() => Promise<import('playwright-core').Page | void>} body
		 */
		const check = async (name, body) => {
			if (ONLY && !ONLY.some((part) => name.includes(part))) return;
			const t0 = Date.now();
			try {
				const shown = (await body()) ?? page;
				await shown.screenshot({ path: path.join(SHOTS, `${name}.png`) });
				if (shown !== page) await shown.close();
				results.push({ name, ok: true, ms: Date.now() - t0 });
				console.log(`[test:editor] ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
			} catch (error) {
				await page.screenshot({ path: path.join(SHOTS, `fail-${name}.png`) }).catch(() => {});
				const message = String(/** @type {Error} */ (error).message).split('\n')[0];
				results.push({ name, ok: false, ms: Date.now() - t0, error: message });
				console.log(`[test:editor] FAIL ${name}: ${message}`);
			}
		};

		await check('credential-good-key', async () => {
			await ui.openCredential(page, app.url, CREDENTIALS.good.id);
			await ui.seeText(page, 'Connection tested successfully');
			// the emulator's Base URL is http://127.0.0.1: accepted, so no notice about plain http
			const notice = await page.getByText('refuses a plain http:// Base URL').count();
			assert.equal(notice, 0, 'the plain-http notice shows for a local Base URL');
		});
		await check('credential-wrong-key', async () => {
			await ui.openCredential(page, app.url, CREDENTIALS.badKey.id);
			await ui.seeText(page, 'connect with these settings'); // "Couldn’t connect ..."
			// the banner shows the test's message after "More details"
			await page.getByText('More details').first().click();
			await ui.seeText(
				page,
				'EventPics refused the API key of the credential (401). Copy the key again',
			);
		});
		await check('credential-plain-http', async () => {
			const before = app.emulator.requests.length;
			await ui.openCredential(page, app.url, CREDENTIALS.plainHttp.id);
			await ui.seeText(page, 'The node refuses a plain http:// Base URL to another machine');
			await ui.seeText(page, 'Use https://');
			// the test's answer in words (issue 22), not "Invalid URL" / ERR_INVALID_URL
			await ui.seeText(page, 'connect with these settings');
			await page.getByText('More details').first().click();
			await ui.seeText(page, 'The Base URL is refused:');
			await ui.seeText(page, 'which would send the API key in clear text');
			// the address is a documentation range: the test refuses it before any connection
			assert.equal(app.emulator.requests.length, before);
		});

		// the credential dialog answers in words with the fix, not with codes (issue 22, point 4)
		await check('credential-no-https', async () => {
			await ui.openCredential(page, app.url, CREDENTIALS.noScheme.id);
			await ui.seeText(page, 'connect with these settings');
			await page.getByText('More details').first().click();
			await ui.seeText(page, 'The Base URL is refused: "api.eventpics.net"');
			await ui.seeText(page, 'https://api.eventpics.net');
			assert.equal(await page.getByText('ERR_INVALID_URL').count(), 0);
		});
		await check('credential-nothing-listens', async () => {
			await ui.openCredential(page, app.url, CREDENTIALS.nothingListens.id);
			await ui.seeText(page, 'connect with these settings');
			await page.getByText('More details').first().click();
			await ui.seeText(page, 'Nothing answers at 127.0.0.1:');
			await ui.seeText(page, 'the connection was refused');
			assert.equal(await page.getByText('ECONNREFUSED').count(), 0);
		});

		await check('node-search', async () => {
			await ui.searchNode(page, app.url, 'EventPics');
		});

		await ui.openNode(page, app.url, WORKFLOWS.lists.id, 'Upload to EventPics');
		await check('event-list-and-search', async () => {
			assert.equal(await ui.rlValue(page, 'event'), "Anna & Ben's Wedding");
			assert.deepEqual(await ui.rlItems(page, 'event'), [
				"Anna & Ben's Wedding",
				'Summer Party 2026',
				'Office Opening',
			]);
			// n8n keeps the current value on top of the list, also while searching
			assert.deepEqual(await ui.rlSearch(page, 'party'), [
				"Anna & Ben's Wedding",
				'Summer Party 2026',
			]);
			await ui.escape(page);
		});
		await check('album-list-of-event', async () => {
			assert.equal(await ui.rlValue(page, 'album'), 'Photo booth');
			assert.deepEqual(await ui.rlItems(page, 'album'), [
				'Photo booth',
				'No album (upload into the event itself)',
				'Ceremony',
			]);
			await ui.escape(page);
		});
		await check('album-after-switching-event', async () => {
			await ui.rlPick(page, 'event', 'Summer Party 2026');
			assert.equal(await ui.rlValue(page, 'album'), '', 'the album of the previous event stayed');
			assert.deepEqual(await ui.rlItems(page, 'album'), [
				'No album (upload into the event itself)',
				'Booth',
				'Dance floor',
			]);
			assert.deepEqual(await ui.rlSearch(page, 'photo'), []);
			await ui.escape(page);
		});
		await check('album-no-album-entry-empties-the-field', async () => {
			await ui.rlPick(page, 'album', 'Booth');
			assert.equal(await ui.rlValue(page, 'album'), 'Booth');
			await ui.rlPick(page, 'album', 'No album');
			assert.equal(await ui.rlValue(page, 'album'), '');
			// the empty field says what it means, in the words of the entry just picked
			assert.equal(
				await ui.rlPlaceholder(page, 'album'),
				'No album (upload into the event itself)',
			);
		});
		await check('album-event-without-albums', async () => {
			await ui.rlPick(page, 'event', 'Office Opening');
			assert.equal(await ui.rlValue(page, 'album'), '');
			assert.deepEqual(await ui.rlItems(page, 'album'), [
				'This event has no albums: leave Album empty',
			]);
			await ui.escape(page);
		});

		await check('custom-api-call-points-to-http-request', async () => {
			// n8n adds the entry because the credential can authenticate the HTTP Request node
			await page.locator('[data-test-id="parameter-input-resource"]').first().click();
			const options = await page.getByRole('option').allInnerTexts();
			assert.deepEqual(
				options.map((o) => o.trim()),
				['Album', 'Event', 'Photo', 'Custom API Call'],
			);
			await page.getByRole('option', { name: 'Custom API Call' }).first().click();
			await ui.seeText(page, 'Use the HTTP Request node to make a custom API call');
			await ui.seeText(page, 'take care of the EventPics auth for you');
		});

		await check('error-album-of-another-event', async () => {
			await ui.openWorkflow(page, app.url, WORKFLOWS.stale.id);
			await ui.executeWorkflow(page);
			await ui.openNodeOnCanvas(page, 'Upload to EventPics');
			await ui.seeText(
				page,
				'The album "Photo booth" (booth) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance)',
			);
		});

		await check('dropdown-wrong-key', async () => {
			await ui.openNode(page, app.url, WORKFLOWS.badKey.id, 'Upload to EventPics');
			// with the HTTP code n8n shows the advice under the message and links the credential
			const shown = await ui.rlError(page, 'event');
			assert.match(
				shown,
				/^Could not load list\n401 - EventPics refused the API key of the credential\n/,
			);
			assert.match(
				shown,
				/Open the EventPics credential, copy the key again from the EventPics app/,
			);
			assert.match(shown, /Check your credential/);
		});

		await runChecks({ check, page, context, app });
		await nodeChecks({ check, page, app });
		await expressionChecks({ check, page, app });
	} finally {
		await browser.close();
		await app.close();
	}
	const failed = results.filter((r) => !r.ok);
	console.log(
		`[test:editor] ${results.length - failed.length} of ${results.length} checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots in ${path.relative(process.cwd(), SHOTS)}`,
	);
	if (failed.length > 0) process.exit(1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
