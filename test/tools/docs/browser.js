// @ts-check
'use strict';

/**
 * Headless Chromium for the README's screenshots (playwright-core, the system's chromium).
 * Override the binary with CHROMIUM_PATH. Only loopback pages are opened.
 */

const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** @returns {Promise<import('playwright-core').Browser>} */
async function launchBrowser() {
	const { chromium } = require('playwright-core');
	return await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
		args: CHROMIUM_ARGS,
	});
}

module.exports = { launchBrowser, CHROMIUM_ARGS };
