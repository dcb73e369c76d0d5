// @ts-check
'use strict';

/**
 * Browser-tier checks of the node's fields as the editor shows them (issue 22): option names that fit
 * n8n's option list, Concurrent Uploads as added (automatic) and typed, the link-ID placeholder, and "EventPics Tool" as added to an AI Agent.
 */

const assert = require('node:assert/strict');
const { WORKFLOWS } = require('./setup');
const ui = require('./ui');

/**
 * How the issue saw the two long names cut in the option list. The list had room for at least
 * each of these (ellipsis included), so a name no wider than the narrower one fits that list.
 */
const CUT_AS_SEEN = ['Allow Files That Are Not Ph…', 'Send Unknown Types as O…'];

/** @typedef {(name: string, body: () => Promise<import('playwright-core').Page | void>) => Promise<void>} Check */

/**
 * @param {{ check: Check, page: import('playwright-core').Page, app: { url: string, emulator: any } }} tier
 */
async function nodeChecks({ check, page, app }) {
	await check('options-fit-the-list', async () => {
		await ui.openNode(page, app.url, WORKFLOWS.lists.id, 'Upload to EventPics');
		await page.locator('[data-test-id="collection-parameter-add"]').first().click();
		const options = page.locator('[data-test-id="collection-parameter-option"]:visible');
		await options.first().waitFor({ timeout: 30_000 });
		// each name's width in the list's own font, against the width the list had room for
		const { room, widths } = await options.evaluateAll((items, cut) => {
			/** @type {any} the page's window (this runs in the browser) */
			const browser = globalThis;
			const measure = browser.document.createElement('canvas').getContext('2d');
			measure.font = browser.getComputedStyle(items[0]).font;
			const width = (/** @type {string} */ text) => Math.round(measure.measureText(text).width);
			return {
				room: Math.min(...cut.map(width)),
				widths: items.map((item) => {
					const text = String(/** @type {any} */ (item).innerText).trim();
					return { text, width: width(text) };
				}),
			};
		}, CUT_AS_SEEN);
		const names = widths.map((entry) => entry.text);
		for (const name of ['Allow Internal Addresses', 'File Types', 'Skip Files Uploaded Before'])
			assert.ok(names.includes(name), `the list has no "${name}": ${names.join(', ')}`);
		const long = widths.filter((entry) => entry.width > room);
		assert.deepEqual(
			long,
			[],
			`wider than the ${room} px the issue's list had room for: ${JSON.stringify(long)}`,
		);
	});

	// issue 22.7: adding the option keeps the automatic mode (0, said in its hint), and a typed value
	// reaches what automatic reaches (64)
	await check('concurrent-uploads-automatic-when-added', async () => {
		await ui.openNode(page, app.url, WORKFLOWS.lists.id, 'Upload to EventPics');
		await page.locator('[data-test-id="collection-parameter-add"]').first().click();
		await page
			.locator('[data-test-id="collection-parameter-option"]:visible')
			.filter({ hasText: /^\s*Concurrent Uploads\s*$/ })
			.first()
			.click();
		const field = page.locator('[data-test-id="parameter-input-concurrency"] input').first();
		await field.waitFor({ timeout: 30_000 });
		// the option list closes after the pick (so the screenshot shows the field, not the list)
		await page
			.locator('[data-test-id="collection-parameter-option"]:visible')
			.first()
			.waitFor({ state: 'hidden', timeout: 10_000 });
		assert.equal(await field.inputValue(), '0');
		await ui.seeText(page, '0 = automatic (4 growing to 64)');
		await field.fill('64');
		// blur, not Tab: Tab moves on to "Add option", which opens the list again
		await field.blur();
		assert.equal(await field.inputValue(), '64');
	});

	await check('event-by-link-id-placeholder', async () => {
		await ui.openNode(page, app.url, WORKFLOWS.badKey.id, 'Upload to EventPics');
		assert.equal(await ui.rlPlaceholder(page, 'album'), 'No album (upload into the event itself)');
		await ui.rlMode(page, 'event', 'By ID');
		assert.equal(await ui.rlPlaceholder(page, 'event'), 'e.g. hx7Kq2');
	});

	await check('tool-as-added', async () => {
		await ui.openNode(page, app.url, WORKFLOWS.agent.id, 'EventPics');
		const ndv = page.locator('[data-test-id="ndv"]').first();
		const description = await page
			.locator('[data-test-id="parameter-input-toolDescription"] textarea')
			.first()
			.inputValue();
		assert.match(description, /^Uploads a photo or video from a public http\(s\) address/);
		// no Source (an agent cannot fill a binary field): the tool takes a File URL
		assert.equal(await page.locator('[data-test-id="parameter-input-source"]').count(), 0);
		// Event, Album and File URL read as n8n's own tools do, not as code
		const text = await ndv.innerText();
		assert.equal(text.match(/Defined automatically by the model/g)?.length, 3, text);
		assert.doesNotMatch(text, /\$fromAI/);
	});

	// what the model is asked for: n8n's test of a tool node asks for exactly its $fromAI fields
	await check('tool-asks-what-the-model-gives', async () => {
		await page.getByText('Execute step').first().click();
		const modal = page.locator('[data-test-id="fromAiParameters-modal"]:visible').first();
		await modal.waitFor({ timeout: 30_000 });
		const text = await modal.innerText();
		assert.match(text, /Provide the data that would normally come from the "AI Agent" node/);
		const inputs = modal.locator('[data-test-id="from-ai-parameters-modal-inputs"] input:visible');
		assert.equal(await inputs.count(), 3, text);
		for (const key of ['linkId', 'albumId', 'fileUrl']) assert.match(text, new RegExp(key));
		// as the agent would: an event, an album and an address (here one on this machine)
		await inputs.nth(0).fill('wedding-anna-ben');
		await inputs.nth(1).fill('ceremony');
		await inputs.nth(2).fill(`${app.emulator.baseUrl}/cake.jpg`);
	});

	await check('tool-refuses-internal-addresses', async () => {
		const modal = page.locator('[data-test-id="fromAiParameters-modal"]:visible').first();
		await modal.getByRole('button', { name: 'Execute step' }).click();
		// the tool as added refuses addresses inside the network, so an agent cannot read internal files
		await ui.seeText(page, 'points into an internal network');
		// the node's words, one voice (issue 40); the tool's error carries no item index, so no "[item 0]"
		const shown = await page.locator('[data-test-id="node-error-message"]').first().innerText();
		assert.match(shown, /^The File URL points into an internal network at /);
		assert.doesNotMatch(shown, /\[item 0\]/);
	});
}

module.exports = { nodeChecks };
