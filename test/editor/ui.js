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
	return await locator(page, name)
		.locator('[data-test-id="rlc-input"] input, input[data-test-id="rlc-input"]')
		.first()
		.inputValue();
}

/** @param {Page} page */
const dropdown = (page) =>
	page.locator('[data-test-id="resource-locator-dropdown"]:visible').first();

/** Opens the list of a resource locator. @param {Page} page @param {string} name */
async function rlOpen(page, name) {
	await locator(page, name).locator('[data-test-id="rlc-input"]').first().click();
	await dropdown(page).waitFor({ timeout: TIMEOUT });
}

/** The entries a list shows once it has loaded. @param {Page} page */
async function shownItems(page) {
	const box = dropdown(page);
	await box
		.locator('[data-test-id="rlc-item"], [class*="empty"], [class*="Empty"]')
		.first()
		.waitFor({ timeout: TIMEOUT });
	await page.waitForTimeout(800);
	return (await box.locator('[data-test-id="rlc-item"]').allInnerTexts()).map((t) => t.trim());
}

/** Opens the list and returns its entries. @param {Page} page @param {string} name */
async function rlItems(page, name) {
	await rlOpen(page, name);
	return await shownItems(page);
}

/** Types into the open list's search. @param {Page} page @param {string} query */
async function rlSearch(page, query) {
	const search = dropdown(page)
		.locator('[data-test-id="rlc-search"] input, input[data-test-id="rlc-search"]')
		.first();
	await search.fill(query);
	await page.waitForTimeout(1200);
	return await shownItems(page);
}

/** Picks an entry of a resource locator's list. @param {Page} page @param {string} name @param {string} entry */
async function rlPick(page, name, entry) {
	await rlOpen(page, name);
	await shownItems(page);
	await dropdown(page).locator('[data-test-id="rlc-item"]', { hasText: entry }).first().click();
	await page.waitForTimeout(800);
}

module.exports = {
	seeText,
	openCredential,
	openWorkflow,
	openNodeOnCanvas,
	openNode,
	executeWorkflow,
	searchNode,
	rlValue,
	rlOpen,
	rlItems,
	rlSearch,
	rlPick,
};
