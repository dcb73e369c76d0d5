// @ts-check
'use strict';

/**
 * Browser-tier checks of runs (issue 22): an example as imported, its event and album picked from
 * the lists and run; what the output pane says about uploaded, skipped and failed files; and the
 * guest form example sent in Chromium as a guest does.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { loadExample } = require('../examples/examples');
const { WORKFLOWS } = require('./setup');
const ui = require('./ui');

const SAMPLES = path.join(__dirname, '..', '..', 'fixtures', 'samples');

/** The hint of the run that begins a workflow's history of Skip Files Uploaded Before. */
const NEW_HISTORY =
	"EventPics: this run began the workflow's history of uploaded files (Skip Files Uploaded Before). Files uploaded before the option was on are not in it, so any of them in this run went up again.";

/** The hint of Keep New's run that begins the history. */
const KEEP_NEW_BEGAN =
	"EventPics: this run began the workflow's history of uploaded files. Files uploaded before an Upload skipped by File ID are not in it, so they all pass as new.";

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {(name: string, body: () => Promise<Page | void>) => Promise<void>} Check */

/** @param {any} emulator @param {number} count @param {Page} page */
async function uploadsReach(emulator, count, page) {
	const deadline = Date.now() + 90_000;
	while (emulator.uploads.length < count && Date.now() < deadline) await page.waitForTimeout(250);
	assert.equal(emulator.uploads.length, count, 'not every photo arrived');
}

/**
 * @param {{ check: Check, page: Page, context: import('playwright-core').BrowserContext, app: { url: string, emulator: any, booth: string, mixed: string, formUrl: string } }} tier
 */
async function runChecks({ check, page, context, app }) {
	await check('upload-from-the-editor', async () => {
		const booth = loadExample('photo-booth-folder');
		// the example as a user imports it: Event and Album are picked in Keep new photos, from
		// the user's own lists; the upload takes them from there
		await ui.openNode(page, app.url, booth.id, 'Keep new photos');
		assert.deepEqual(
			[await ui.rlValue(page, 'event'), await ui.rlValue(page, 'album')],
			['', ''],
			'the example came with an event or album',
		);
		await ui.rlPick(page, 'event', "Anna & Ben's Wedding");
		await ui.rlPick(page, 'album', 'Photo booth');
		await ui.escape(page);
		await ui.escape(page);
		await ui.saveWorkflow(page);
		// "Execute workflow" listens to the folder; the booth writes a photo, the trigger reports it
		// (one event: a run from the editor takes the first) and the run uploads it
		const photo = 'booth-0001.jpg';
		const before = app.emulator.uploads.length;
		await ui.executeWorkflowOnEvent(page, () =>
			fs.copyFileSync(path.join(SAMPLES, photo), path.join(app.booth, photo)),
		);
		await uploadsReach(app.emulator, before + 1, page);
		assert.equal(app.emulator.uploads.at(-1).fileName, photo);
		await ui.openNodeOnCanvas(page, 'Keep new photos');
		// the booth's first run: Keep New says it began the history (the Upload after it cannot tell)
		assert.deepEqual((await ui.outputPane(page)).hints, [
			KEEP_NEW_BEGAN,
			'EventPics: 1 of 1 file is new.',
		]);
		await ui.escape(page);
		await ui.openNodeOnCanvas(page, 'Upload to EventPics');
		const output = await ui.outputPane(page);
		// no NEW_HISTORY here: Keep New asked the history first, so the upload does not find it empty
		assert.deepEqual(output.hints, ['EventPics: 1 file uploaded.']);
		// the example keeps Simplify on: no empty "reason" column beside uploaded files
		assert.deepEqual(output.columns.slice(0, 2), ['outcome', 'fileName']);
		assert.deepEqual([...output.columns].sort(), [
			'albumTitle',
			'bytes',
			'eventTitle',
			'fileName',
			'outcome',
			'takenAt',
			'warnings',
		]);
		assert.match(output.text, /uploaded/);
		assert.doesNotMatch(output.text, /undefined/);
		// the run kept what the user picked and the upload's expressions (n8n autosaves a few
		// seconds after a run; issue 30 saw it empty fields there)
		await page.waitForTimeout(8000);
		const stored = await ui.storedWorkflow(page, booth.id);
		/** @param {string} name */
		const target = (name) => {
			const { event, album } = stored.nodes.find(
				(/** @type {any} */ n) => n.name === name,
			).parameters;
			return [event.value, album.value];
		};
		assert.deepEqual(target('Keep new photos'), ['wedding-anna-ben', 'booth']);
		const shipped = booth.nodes.find((/** @type {any} */ n) => n.name === 'Upload to EventPics');
		assert.deepEqual(target('Upload to EventPics'), [
			shipped.parameters.event.value,
			shipped.parameters.album.value,
		]);
	});

	await check('run-says-what-it-did', async () => {
		const sample = (/** @type {string} */ name) => fs.readFileSync(path.join(SAMPLES, name));
		fs.writeFileSync(path.join(app.mixed, 'seen.jpg'), sample('booth-0001.jpg'));
		await ui.openWorkflow(page, app.url, WORKFLOWS.outcomes.id);
		await ui.executeWorkflow(page); // uploads seen.jpg
		// the first run with Skip Files Uploaded Before on says that it began the history
		await ui.openNodeOnCanvas(page, 'Upload to EventPics');
		assert.deepEqual((await ui.outputPane(page)).hints, [
			NEW_HISTORY,
			'EventPics: 1 file uploaded.',
		]);
		await ui.escape(page);
		fs.writeFileSync(path.join(app.mixed, 'new.jpg'), sample('booth-0002.jpg'));
		fs.writeFileSync(path.join(app.mixed, 'broken.jpg'), '<html>Not found</html>');
		await ui.executeWorkflow(page);
		await ui.openNodeOnCanvas(page, 'Upload to EventPics');
		const output = await ui.outputPane(page);
		assert.deepEqual(output.hints, [
			'EventPics: 1 file uploaded, 1 skipped (uploaded before), 1 failed (see "error").',
		]);
		// a failed file's message is in "error" alone; "reason" says why a file was skipped
		assert.deepEqual(output.columns.slice(0, 4), ['outcome', 'fileName', 'reason', 'error']);
		for (const outcome of ['uploaded', 'skipped', 'failed'])
			assert.match(output.text, new RegExp(outcome));
		// every item has every field: no column is missing from a row
		assert.doesNotMatch(output.text, /undefined/);
	});

	/** @param {string[]} files @param {string} title */
	const sendForm = async (files, title) => {
		const guest = await context.newPage();
		try {
			await guest.goto(app.formUrl, { waitUntil: 'networkidle' });
			await guest.locator('input[type=file]').first().setInputFiles(files);
			await guest.locator('button[type=submit]').first().click();
			await guest.getByText(title).first().waitFor({ timeout: 60_000 });
			return { guest, text: await guest.locator('body').innerText() };
		} catch (error) {
			await guest.close();
			throw error;
		}
	};

	// these two return the guest's page, so that is what their screenshots show
	await check('guest-form-thanks-the-guest', async () => {
		const { guest, text } = await sendForm([path.join(SAMPLES, 'confetti.png')], 'Thank you!');
		assert.match(text, /Your photos are in the album\./);
		return guest;
	});

	await check('guest-form-names-what-did-not-arrive', async () => {
		const notes = path.join(app.mixed, 'notes.txt');
		fs.writeFileSync(notes, 'not a photo');
		const { guest, text } = await sendForm(
			[path.join(SAMPLES, 'first-dance.heic'), notes],
			'Not every file arrived',
		);
		assert.match(
			text,
			/These did not arrive: notes\.txt\. Please send them again; the others are in the album\./,
		);
		return guest;
	});
}

module.exports = { runChecks };
