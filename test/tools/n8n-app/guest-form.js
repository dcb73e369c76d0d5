// @ts-check
'use strict';

/**
 * A guest sending the form of the form-to-album example, over HTTP, as the page's own script does in
 * n8n 2.41 (templates/form-trigger.handlebars) when a Form Ending node follows the trigger: POST the
 * fields, get `formWaitingUrl`, ask `<formWaitingUrl>/n8n-execution-status` until the run waits at
 * the ending page ("form-waiting"), then load that page. Used by `npm run test:n8n` (regular mode)
 * and `npm run test:queue` (queue mode); the browser tier sends the form in Chromium.
 */

/**
 * n8n answers before it has registered the published workflows' forms (seen once: a 404 right
 * after start), so the form page is asked for until it is there, for at most 30 s.
 * @param {string} formUrl
 * @returns {Promise<string>} the form page
 */
async function formPage(formUrl) {
	let page = await fetch(formUrl);
	for (let tries = 0; page.status === 404 && tries < 30; tries++) {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		page = await fetch(formUrl);
	}
	if (page.status !== 200) throw new Error(`GET ${formUrl} answered ${page.status}`);
	return await page.text();
}

/** @param {string} text */
const unescape = (text) =>
	text
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, '&')
		.trim();

/**
 * @param {string} formUrl the form's production URL
 * @param {{ name: string, files: Array<{ name: string, data: Buffer }> }} submission
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<{ title: string, message: string }>} what the guest's last page says
 */
async function sendGuestForm(formUrl, submission, options = {}) {
	const body = new FormData();
	body.append('field-0', submission.name);
	for (const file of submission.files) body.append('field-1', new Blob([file.data]), file.name);
	const answer = await fetch(formUrl, { method: 'POST', body });
	const text = await answer.text();
	/** @type {any} */
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	if (answer.status !== 200 || typeof json?.formWaitingUrl !== 'string')
		throw new Error(
			`the form answered ${answer.status} "${text.slice(0, 300)}", not a page to wait for`,
		);
	const waiting = new URL(json.formWaitingUrl);
	const status = new URL(waiting);
	status.pathname += '/n8n-execution-status';
	const deadline = Date.now() + (options.timeoutMs ?? 60_000);
	let state = '';
	while (Date.now() < deadline) {
		state = (await (await fetch(status)).text()).trim();
		if (state === 'form-waiting') break;
		if (['error', 'crashed', 'canceled', 'success', 'null'].includes(state))
			throw new Error(`the run ended "${state}" instead of showing the guest a page`);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	if (state !== 'form-waiting') throw new Error(`no page for the guest: last status "${state}"`);
	const page = await (await fetch(waiting)).text();
	const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(page)?.[1];
	// the paragraph after the title (n8n 2.41 styles it with white-space: pre-line, 2.0 and 1.x do not)
	const message = /<\/h1>\s*<p[^>]*>([\s\S]*?)<\/p>/.exec(page)?.[1];
	if (title === undefined) throw new Error(`the guest's page has no title: ${page.slice(0, 300)}`);
	return { title: unescape(title), message: unescape(message ?? '') };
}

module.exports = { formPage, sendGuestForm };
