// @ts-check
'use strict';

/**
 * What a caller hears when an upload fails, in queue mode (issue 22, point 8):
 * - the tier's webhook workflow (Respond to Webhook after the upload, On Error "Continue") answers
 *   with the failed file's item. It used to answer an empty 200: n8n 2.41's default expression
 *   engine ("vm") gave Respond to Webhook an empty body for `$input.all()` over items that carry
 *   n8n's error object, which the node's failed items then did (N8N_EXPRESSION_ENGINE=legacy
 *   answered the JSON). Failed files are now plain items with `outcome: "failed"`.
 * - the guest form example (examples/form-to-album.json, its pickers filled with the
 *   emulator's event and album): the guest's last page thanks them, or names the files that did
 *   not arrive.
 */

const assert = require('node:assert/strict');
const { EMULATOR_TARGET, loadExample } = require('../examples/examples');
const { EMULATOR_CREDENTIAL } = require('../n8n-app/n8n');
const { sendGuestForm } = require('../n8n-app/guest-form');
const { makePhotos, postBatch } = require('./load');

/** The guest form example as the tier imports and publishes it. */
const FORM = loadExample('form-to-album', {
	target: EMULATOR_TARGET,
	credential: EMULATOR_CREDENTIAL,
});

/** @param {import('./scenarios').Context} ctx */
async function failuresAnswered(ctx) {
	const refused = await postBatch(`${ctx.server.url}/webhook/queue-batch`, [
		{ name: 'notes.txt', data: Buffer.from('not a photo') },
	]);
	assert.deepEqual(
		refused.results.map((result) => [result.outcome, result.fileName]),
		[['failed', 'notes.txt']],
	);
	assert.match(String(refused.results[0].error), /is neither a photo nor a video/);
	ctx.step(
		'ok  a refused file: Respond to Webhook answers with its item (outcome "failed", error)',
	);

	const formUrl = `${ctx.server.url}/form/${FORM.nodes.find((/** @type {any} */ n) => n.name === 'Photo form').parameters.options.path}`;
	const [photo] = makePhotos('guest', 1);
	const thanked = await sendGuestForm(formUrl, { name: 'Guest', files: [photo] });
	assert.deepEqual(thanked, { title: 'Thank you!', message: 'Your photos are in the album.' });
	assert.ok(ctx.emulator.uploads.some((/** @type {any} */ u) => u.fileName === photo.name));
	const [second] = makePhotos('guest-2', 1);
	const told = await sendGuestForm(formUrl, {
		name: 'Guest',
		files: [second, { name: 'notes.txt', data: Buffer.from('not a photo') }],
	});
	assert.deepEqual(told, {
		title: 'Not every file arrived',
		message:
			'These did not arrive: notes.txt. Please send them again; the others are in the album.',
	});
	assert.ok(ctx.emulator.uploads.some((/** @type {any} */ u) => u.fileName === second.name));
	ctx.step(
		`ok  guest form: "${thanked.title}" when every file arrived; "${told.title}: ${told.message}"`,
	);
}

module.exports = { FORM, failuresAnswered };
