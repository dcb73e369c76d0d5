import * as fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { startEmulator } from './index';
import { makePng, put, uploadUrlFor, type Emu } from './testkit.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { launchBrowser } = require('../docs/browser') as { launchBrowser: () => Promise<Browser> };

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const maybe = hasChromium ? test : test.skip;

let emu: Emu;
let browser: Browser | undefined;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(async () => {
	await browser?.close();
	await emu.close();
});

// Without Chromium the test is skipped under a name that says why (test/summary-reporter.js lists it).
maybe(
	hasChromium
		? 'a real browser loads the page after an upload and shows the photo (img loaded)'
		: `${CHROMIUM} is absent (apt-get update && apt-get install -y chromium): a real browser loads the page`,
	async () => {
		const png = makePng(96, 64);
		const url = await uploadUrlFor(emu, {
			fileName: 'booth-001.png',
			albumId: 'booth',
			takenAt: 1767225600000,
		});
		expect((await put(url, png, { 'content-type': 'image/png' })).status).toBe(200);
		const second = await uploadUrlFor(emu, {
			linkId: 'summer-party-2026',
			albumId: 'sp-dance',
			fileName: 'dance <1>.png',
		});
		expect((await put(second, makePng(64, 64), { 'content-type': 'image/png' })).status).toBe(200);

		browser = await launchBrowser();
		const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
		const response = await page.goto(`${emu.baseUrl}/`, { waitUntil: 'load' });
		expect(response?.status()).toBe(200);
		expect(await page.title()).toBe('EventPics emulator');

		const id = emu.uploads[0].id;
		const img = page.locator(`figure[data-upload-id="${id}"] img`);
		await img.waitFor();
		// In-page code: DOM types are not in this project's lib, so the elements are typed loosely.
		await page.waitForFunction((sel) => {
			const el = (globalThis as any).document.querySelector(sel);
			return !!el && el.complete === true;
		}, `figure[data-upload-id="${id}"] img`);
		const natural = await img.evaluate((el: any) => ({
			w: el.naturalWidth as number,
			h: el.naturalHeight as number,
		}));
		expect(natural).toEqual({ w: 96, h: 64 });
		const caption = await page.locator(`figure[data-upload-id="${id}"] figcaption`).innerText();
		expect(caption).toContain('booth-001.png');
		expect(caption).toContain('image/png');
		expect(caption).toContain('2026-01-01T00:00:00.000Z');
		expect(
			await page.locator(`figure[data-upload-id="${emu.uploads[1].id}"] .name`).innerText(),
		).toBe('dance <1>.png');

		const all = await page.$$eval('figure.photo img', (els) =>
			els.map((e: any) => e.naturalWidth as number),
		);
		expect(all).toHaveLength(2);
		expect(all.every((w) => w > 0)).toBe(true);
		await page.screenshot({ path: '/tmp/emulator-page.png', fullPage: true });
		expect(fs.statSync('/tmp/emulator-page.png').size).toBeGreaterThan(1000);
	},
);
