// @ts-check
'use strict';

/**
 * The example workflows (importable n8n JSON in examples/ at the top level), one per real use. Each is run by
 * the tests in test/product/examples/ against the emulator, and the booth and form examples also by
 * `npm run test:n8n` in the real n8n app.
 */

const fs = require('node:fs');
const path = require('node:path');

const FOLDER = path.join(__dirname, '..', '..', '..', 'examples');

/** The booth example's folder; tests and `npm run n8n` swap it for a folder of their own. */
const BOOTH_FOLDER_PLACEHOLDER = '/srv/booth/outbox';

/** @type {Array<{ name: string, title: string, summary: string }>} */
const EXAMPLES = [
	{
		name: 'photo-booth-folder',
		title: 'Photo booth folder to album',
		summary:
			'Each photo the booth software saves into its folder goes up once, whole, as soon as it is written, all night and across restarts.',
	},
	{
		name: 'google-drive-import',
		title: 'Scheduled import from Google Drive',
		summary:
			'Every 15 minutes, copy new photos and videos of a Drive folder into an album; files uploaded before are not even downloaded.',
	},
	{
		name: 'form-to-album',
		title: 'Guest form to album',
		summary:
			'A public n8n form where guests pick photos and videos that go straight into the album.',
	},
	{
		name: 'new-event-tell-organizer',
		title: 'New event: tell the organizer',
		summary:
			'The EventPics Trigger watches for new events; each new one sends the organizer an email with its title, link ID and albums.',
	},
	{
		name: 'ai-agent-tools',
		title: 'AI agent with EventPics tools',
		summary:
			'A chat agent that lists your events and albums and uploads a photo from a link into the album you name.',
	},
];

/**
 * @typedef {{ linkId: string, eventTitle: string, albumId: string, albumTitle: string }} Target
 *   an event and album of the emulator, as the list would fill them in
 */

/** The emulator's demo event and album (test/tools/emulator/seed.js), for tests and `npm run n8n`. */
const EMULATOR_TARGET = {
	linkId: 'wedding-anna-ben',
	eventTitle: "Anna & Ben's Wedding",
	albumId: 'booth',
	albumTitle: 'Photo booth',
};

/**
 * The examples ship with Event and Album empty (list mode, no value): the user picks them from
 * their own list after import. A test fills them as picking from the list does.
 * @param {any} workflow
 * @param {Target} target
 */
function pickTarget(workflow, target) {
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-eventpics.eventPics') continue;
		const { event, album } = node.parameters;
		if (event?.mode === 'list' && event.value === '')
			Object.assign(event, { value: target.linkId, cachedResultName: target.eventTitle });
		if (album?.mode === 'list' && album.value === '')
			Object.assign(album, { value: target.albumId, cachedResultName: target.albumTitle });
	}
	return workflow;
}

/**
 * @param {string} name
 * @param {{ boothFolder?: string, target?: Target }} [options] `target`: the event and album to
 *   put into the EventPics nodes whose Event and Album are empty (as shipped)
 * @returns {any} the workflow JSON
 */
function loadExample(name, options = {}) {
	if (!EXAMPLES.some((example) => example.name === name))
		throw new Error(`No example workflow "${name}"`);
	let text = fs.readFileSync(path.join(FOLDER, `${name}.json`), 'utf8');
	if (options.boothFolder)
		text = text.split(BOOTH_FOLDER_PLACEHOLDER).join(options.boothFolder.replace(/\\/g, '/'));
	const workflow = JSON.parse(text);
	return options.target ? pickTarget(workflow, options.target) : workflow;
}

module.exports = { EXAMPLES, FOLDER, BOOTH_FOLDER_PLACEHOLDER, EMULATOR_TARGET, loadExample };
