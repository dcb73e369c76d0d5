// @ts-check
'use strict';

/**
 * What a user does in the n8n 2.41 editor, in playwright-core terms (the data-test-id hooks n8n's
 * own end-to-end tests use). Every helper waits for what the page shows and fails with a timeout.
 */

/** @typedef {import('playwright-core').Page} Page */

const TIMEOUT = 30_000;

/** Waits until the page shows `text` (a substring of a visible element). @param {Page} page @param {string} text */
async function seeText(page, text) {
	await page
		.getByText(text, { exact: false })
		.first()
		.waitFor({ state: 'visible', timeout: TIMEOUT });
}

/** @param {Page} page @param {string} url @param {string} id */
async function openCredential(page, url, id) {
	await page.goto(`${url}/home/credentials/${id}`, { waitUntil: 'networkidle' });
	await page
		.locator('[data-test-id="credential-edit-dialog"]')
		.first()
		.waitFor({ timeout: TIMEOUT });
}

/** @param {Page} page @param {string} url @param {string} id */
async function openWorkflow(page, url, id) {
	await page.goto(`${url}/workflow/${id}`, { waitUntil: 'networkidle' });
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
	await page.waitForTimeout(500);
}

/** @param {Page} page @param {string} name */
async function openNodeOnCanvas(page, name) {
	await page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick();
	await page.locator('[data-test-id="ndv"]').first().waitFor({ timeout: TIMEOUT });
}

/** @param {Page} page @param {string} url @param {string} workflowId @param {string} name */
async function openNode(page, url, workflowId, name) {
	await openWorkflow(page, url, workflowId);
	await openNodeOnCanvas(page, name);
}

/** Clicks "Execute workflow" and waits until the run ended. @param {Page} page */
async function executeWorkflow(page) {
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	await page.waitForTimeout(1000);
	await page
		.locator('[data-test-id="execute-workflow-button"]:not([disabled])')
		.first()
		.waitFor({ timeout: 90_000 });
	await page.waitForTimeout(1500);
}

/**
 * Clicks "Execute workflow" on a workflow whose trigger waits for an event (the Local File Trigger:
 * n8n listens, the button reads "Executing workflow" and a stop button shows), makes the event
 * happen, and waits until the run it started ended. @param {Page} page @param {() => void} event
 */
async function executeWorkflowOnEvent(page, event) {
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	const stop = page.locator('[data-test-id="stop-execution-button"]').first();
	await stop.waitFor({ state: 'visible', timeout: TIMEOUT });
	event();
	await stop.waitFor({ state: 'hidden', timeout: 90_000 });
	await page.waitForTimeout(1500);
}

/** Opens the node panel from an empty workflow and searches it. @param {Page} page @param {string} url @param {string} query */
async function searchNode(page, url, query) {
	await page.goto(`${url}/workflow/new`, { waitUntil: 'networkidle' });
	await page.locator('[data-test-id="canvas-add-button"]').first().click({ timeout: TIMEOUT });
	const search = page.locator('[data-test-id="node-creator-search-bar"]').first();
	await search.waitFor({ timeout: TIMEOUT });
	await search.fill(query);
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: query })
		.first()
		.waitFor({ timeout: TIMEOUT });
}

/** @param {Page} page @param {string} name */
const locator = (page, name) => page.locator(`[data-test-id="resource-locator-${name}"]`).first();

/** The text the resource locator shows. @param {Page} page @param {string} name */
async function rlValue(page, name) {
	return await locator(page, name).locator('input[data-test-id="rlc-input"]').first().inputValue();
}

/** Opens the list of a resource locator (its search box shows). @param {Page} page @param {string} name */
async function rlOpen(page, name) {
	await locator(page, name).locator('[data-test-id="rlc-input"]').first().click();
	await page.locator('[data-test-id="rlc-search"]:visible').first().waitFor({ timeout: TIMEOUT });
}

/**
 * The entries the open list shows once it has loaded (n8n puts the field's current value first
 * and keeps it while searching). @param {Page} page
 */
async function shownItems(page) {
	await page.waitForTimeout(1500);
	return (await page.locator('[data-test-id="rlc-item"]:visible').allInnerTexts()).map((t) =>
		t.trim(),
	);
}

/** Opens the list and returns its entries. @param {Page} page @param {string} name */
async function rlItems(page, name) {
	await rlOpen(page, name);
	return await rlSearch(page, '');
}

/** The error the open list shows instead of entries. @param {Page} page @param {string} name */
async function rlError(page, name) {
	await rlOpen(page, name);
	const box = page.locator('[data-test-id="rlc-error-container"]:visible').first();
	await box.waitFor({ timeout: TIMEOUT });
	return (await box.innerText()).trim();
}

/** Types into the open list's search. @param {Page} page @param {string} query */
async function rlSearch(page, query) {
	await page.locator('[data-test-id="rlc-search"]:visible').first().fill(query);
	return await shownItems(page);
}

/** Picks an entry of a resource locator's list. @param {Page} page @param {string} name @param {string} entry */
async function rlPick(page, name, entry) {
	await rlOpen(page, name);
	// the list keeps the last search: start from the whole list
	await rlSearch(page, '');
	await page.locator('[data-test-id="rlc-item"]:visible', { hasText: entry }).first().click();
	await page.waitForTimeout(1000);
}

/** The text an empty resource locator shows (its input's placeholder). @param {Page} page @param {string} name */
async function rlPlaceholder(page, name) {
	return (
		(await locator(page, name)
			.locator('input[data-test-id="rlc-input"]')
			.first()
			.getAttribute('placeholder')) ?? ''
	);
}

/** Switches a resource locator to another mode ("By Link ID", ...). @param {Page} page @param {string} name @param {string} mode */
async function rlMode(page, name, mode) {
	await locator(page, name).locator('[data-test-id="rlc-mode-selector"]').first().click();
	await page.getByRole('option', { name: mode }).first().click();
	await page.waitForTimeout(500);
}

/** Saves the open workflow (Ctrl+S) and waits until the editor has. @param {Page} page */
async function saveWorkflow(page) {
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: TIMEOUT });
	await page.keyboard.press('Control+s');
	await page.waitForTimeout(1500);
}

/**
 * What the open node's output pane says: its hints (n8n's execution hints, above the data), the
 * table's column names and all its text. @param {Page} page
 */
async function outputPane(page) {
	const panel = page
		.locator('[data-test-id="output-panel"]:visible, [data-test-id="ndv-output-panel"]:visible')
		.first();
	await panel.waitFor({ timeout: TIMEOUT });
	const hints = (await panel.locator('[data-test-id="node-hint"]').allInnerTexts()).map((t) =>
		t.trim(),
	);
	const columns = (await panel.locator('table th').allInnerTexts())
		.map((t) => t.trim())
		.filter(Boolean);
	return { hints, columns, text: await panel.innerText() };
}

/**
 * The workflow as n8n stored it, read through its REST API from the page (as the editor does: the
 * session cookie and the browser-id header). @param {Page} page @param {string} id
 */
async function storedWorkflow(page, id) {
	const answer = await page.evaluate(async (workflowId) => {
		/** @type {any} the page's window (this runs in the browser) */
		const browser = globalThis;
		let browserId = browser.localStorage.getItem('n8n-browserId') ?? '';
		try {
			browserId = JSON.parse(browserId);
		} catch {
			// stored as plain text
		}
		const response = await browser.fetch(`/rest/workflows/${workflowId}`, {
			credentials: 'include',
			headers: { 'browser-id': browserId },
		});
		return { status: response.status, text: await response.text() };
	}, id);
	if (answer.status !== 200)
		throw new Error(`GET /rest/workflows/${id}: ${answer.status} ${answer.text}`);
	return JSON.parse(answer.text).data;
}

/** Closes an open list or dialog. @param {Page} page */
async function escape(page) {
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
}

module.exports = {
	seeText,
	openCredential,
	openWorkflow,
	openNodeOnCanvas,
	openNode,
	executeWorkflow,
	executeWorkflowOnEvent,
	searchNode,
	rlValue,
	rlOpen,
	rlError,
	escape,
	rlItems,
	rlSearch,
	rlPick,
	rlPlaceholder,
	rlMode,
	saveWorkflow,
	storedWorkflow,
	outputPane,
};
