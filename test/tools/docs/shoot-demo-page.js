#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Runs the demo (emulator kept open), then photographs the emulator's page with headless Chromium:
 * test/tools/docs/emulator-page.png (CONTRIBUTING.md shows it). `node test/tools/docs/shoot-demo-page.js [out.png]`
 */

const path = require('node:path');
const { runDemo } = require('../demo/demo');
const { launchBrowser } = require('./browser');

async function main() {
	const out = path.resolve(process.argv[2] ?? path.join(__dirname, 'emulator-page.png'));
	const result = await runDemo({ keep: true, io: { log: () => undefined } });
	const emulator = result.emulator;
	if (!emulator || !result.pageUrl) throw new Error('the demo did not keep its emulator');
	const browser = await launchBrowser();
	try {
		const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
		await page.goto(result.pageUrl, { waitUntil: 'networkidle' });
		const images = await page.locator('figure.photo img').count();
		// the first event only: the one the demo uploaded into
		await page.locator('article.event').first().screenshot({ path: out });
		console.log(`${out}: ${images} photo(s) on the page, ${result.rows.length} uploaded`);
	} finally {
		await browser.close();
		await emulator.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
