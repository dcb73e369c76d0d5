// @ts-check
'use strict';

/**
 * Browser-tier checks that a run from the editor keeps the fields' expressions (issue 30). n8n's
 * editor empties a resource locator whose `loadOptionsDependsOn` values resolve differently, even
 * when it holds an expression, and 2.41 autosaves a few seconds later. Each check runs the node once
 * from its panel as a user tests it, waits for the autosave, saves, reloads and reads the workflow
 * as n8n stored it: the EventPics Tool as added (its `$fromAI()` fields), the shipped AI agent
 * example's upload tool, and the regular node with Event and Album as expressions on its input.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { WORKFLOWS } = require('./setup');
const ui = require('./ui');

const PHOTO = path.join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {(name: string, body: () => Promise<Page | void>) => Promise<void>} Check */

/** @param {any} emulator @param {number} count @param {Page} page */
async function uploadsReach(emulator, count, page) {
	const deadline = Date.now() + 90_000;
	while (emulator.uploads.length < count && Date.now() < deadline) await page.waitForTimeout(250);
	assert.equal(emulator.uploads.length, count, 'the test run uploaded nothing');
}

/**
 * After a run: n8n 2.41 autosaves some seconds after a change (the issue saw the emptied album
 * stored 3-6 s after the run); then an explicit save, a reload, and the node as stored.
 * @param {Page} page @param {string} url @param {string} workflowId @param {string} nodeName
 */
async function storedAfterRun(page, url, workflowId, nodeName) {
	await page.waitForTimeout(8000);
	await ui.escape(page);
	await ui.saveWorkflow(page);
	await ui.openWorkflow(page, url, workflowId);
	const stored = await ui.storedWorkflow(page, workflowId);
	const node = stored.nodes.find((/** @type {any} */ n) => n.name === nodeName);
	assert.ok(node, `no node "${nodeName}" in the stored workflow`);
	// the node as the user sees it again (and as its screenshot shows it)
	await ui.openNodeOnCanvas(page, nodeName);
	return node.parameters;
}

/** The open node panel shows `text` (an expression in a field). @param {Page} page @param {string} text */
async function panelShows(page, text) {
	await page.waitForTimeout(1000);
	const shown = await page.locator('[data-test-id="ndv"]').first().innerText();
	assert.ok(shown.includes(text), `the reopened node does not show ${text}`);
}

/**
 * A stored field keeps its expression. `absentIsDefault`: n8n stores no value that equals the field's
 * default, so an absent field of the tool as added holds its default, the `$fromAI()` one.
 * @param {any} locator the stored resource locator (or `{ value }`) @param {RegExp} expected
 * @param {string} field @param {boolean} absentIsDefault
 */
function keeps(locator, expected, field, absentIsDefault = false) {
	if (locator === undefined && absentIsDefault) return;
	assert.match(
		String(locator?.value ?? ''),
		expected,
		`${field} as stored: ${JSON.stringify(locator)}`,
	);
}

/**
 * Runs a tool node once from its panel: "Execute step", the values a model would give, run.
 * @param {Page} page @param {string[]} values in the order the dialog asks
 */
async function executeToolStep(page, values) {
	await page.getByText('Execute step').first().click();
	const modal = page.locator('[data-test-id="fromAiParameters-modal"]:visible').first();
	await modal.waitFor({ timeout: 30_000 });
	const inputs = modal.locator('[data-test-id="from-ai-parameters-modal-inputs"] input:visible');
	assert.equal(await inputs.count(), values.length, await modal.innerText());
	for (const [index, value] of values.entries()) await inputs.nth(index).fill(value);
	await modal.getByRole('button', { name: 'Execute step' }).click();
}

/**
 * @param {{ check: Check, page: Page, app: { url: string, emulator: any } }} tier
 */
async function expressionChecks({ check, page, app }) {
	const cake = () => app.emulator.addDownload('cake.jpg', fs.readFileSync(PHOTO));

	/**
	 * One tool test run into the album "ceremony", then the stored Event and Album.
	 * @param {{ id: string }} workflow @param {string} nodeName @param {boolean} asAdded
	 */
	const toolRunKeepsFromAi = async (workflow, nodeName, asAdded) => {
		await ui.openNode(page, app.url, workflow.id, nodeName);
		const before = app.emulator.uploads.length;
		await executeToolStep(page, ['wedding-anna-ben', 'ceremony', cake()]);
		await uploadsReach(app.emulator, before + 1, page);
		assert.equal(app.emulator.uploads.at(-1).albumId, 'ceremony');
		const parameters = await storedAfterRun(page, app.url, workflow.id, nodeName);
		keeps(parameters.event, /\$fromAI\('linkId'/, 'Event', asAdded);
		keeps(parameters.album, /\$fromAI\('albumId'/, 'Album', asAdded);
		const fileUrl = parameters.fileUrl === undefined ? undefined : { value: parameters.fileUrl };
		keeps(fileUrl, /\$fromAI\('fileUrl'/, 'File URL', asAdded);
		await panelShows(page, 'Defined automatically by the model');
	};

	await check('tool-keeps-fromai-after-a-test-run', async () => {
		await toolRunKeepsFromAi(WORKFLOWS.agentRun, 'Upload', true);
	});

	await check('example-agent-keeps-fromai-after-a-test-run', async () => {
		await toolRunKeepsFromAi(WORKFLOWS.agentExample, 'Upload photo from URL', false);
	});

	// the regular node: Event and Album from the item (a form or a sheet names them)
	await check('node-keeps-expression-album-after-a-run', async () => {
		await ui.openNode(page, app.url, WORKFLOWS.fromInput.id, 'Upload to EventPics');
		const before = app.emulator.uploads.length;
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		await uploadsReach(app.emulator, before + 1, page);
		assert.equal(app.emulator.uploads.at(-1).albumId, 'ceremony');
		const parameters = await storedAfterRun(
			page,
			app.url,
			WORKFLOWS.fromInput.id,
			'Upload to EventPics',
		);
		keeps(parameters.event, /^=\{\{ \$json\.linkId \}\}$/, 'Event');
		keeps(parameters.album, /^=\{\{ \$json\.albumId \}\}$/, 'Album');
		await panelShows(page, '$json.albumId');
	});
}

module.exports = { expressionChecks };
