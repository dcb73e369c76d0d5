// @ts-check
'use strict';

/**
 * The EventPics Trigger in the real app, for `npm run test:n8n` (check.js calls these in order):
 *   checkTriggerLoaded   n8n loads eventPicsTrigger as a polling node with the example's parameters
 *   publishTriggerExample  the "new event: tell the organizer" example, its SMTP credential pointing
 *                        at a local sink (smtp-sink.js), imported and published before `n8n start`;
 *                        its trigger uses the emulator's second account, so that the trigger's polls
 *                        are told apart from the other examples' calls in the emulator's log
 *   checkTriggerFires    once the activation poll has been answered (it records the account's events),
 *                        an event added to the emulator sends exactly one mail, at the next poll
 * The poll runs every minute (n8n's shortest interval, at a random second), so the last step waits
 * up to about a minute; nothing else in it waits.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./n8n');

const EXAMPLE = 'new-event-tell-organizer';
const TRIGGER_TYPE = 'n8n-nodes-eventpics.eventPicsTrigger';

/** The event the check adds while n8n runs. */
const NEW_EVENT = {
	linkId: 'test-n8n-gala',
	title: 'Gala (test:n8n)',
	albums: [{ id: 'red', title: 'Red carpet' }],
};

/**
 * @param {any[]} types what `n8n export:nodes` wrote
 */
function checkTriggerLoaded(types) {
	const trigger = types.find((type) => type.name === TRIGGER_TYPE);
	assert.ok(trigger, `n8n did not load ${TRIGGER_TYPE}`);
	assert.equal(trigger.polling, true);
	// the same credential as the EventPics node, tested by the same method (testedBy)
	const eventPics = types.find((type) => type.name === 'n8n-nodes-eventpics.eventPics');
	assert.deepEqual(trigger.credentials, eventPics?.credentials);
	assert.equal(trigger.credentials[0].name, 'eventPicsApi');
	const known = new Set(['pollTimes', ...trigger.properties.map((/** @type {any} */ p) => p.name)]);
	const node = n8n
		.loadExample(EXAMPLE)
		.nodes.find((/** @type {any} */ n) => n.type === TRIGGER_TYPE);
	for (const name of Object.keys(node.parameters))
		assert.ok(
			known.has(name),
			`${EXAMPLE}: the trigger sets "${name}", which ${TRIGGER_TYPE} does not have`,
		);
}

/** The trigger's EventPics credential: the emulator's second account. */
const TRIGGER_CREDENTIAL = {
	id: 'eventpicsEmulatorOther',
	name: 'EventPics (emulator, second account)',
};

/** The mail node's SMTP credential, on the test's mail sink (the example ships without credentials). */
const SMTP_CREDENTIAL = { id: 'smtpExample01', name: 'SMTP account' };

/**
 * Imports the example with an SMTP credential for the sink and the second account's EventPics
 * credential, and publishes it.
 * `fit` adapts the workflow to the n8n version under test (check.js: node versions it has),
 * `publish` publishes it (default: `n8n publish:workflow`).
 * @param {{ env: NodeJS.ProcessEnv, work: string, smtpPort: number, emulator: { otherApiKey: string, baseUrl: string }, fit?: (workflow: any) => any, publish?: (workflow: any) => Promise<void> }} options
 */
async function publishTriggerExample({
	env,
	work,
	smtpPort,
	emulator,
	fit = (w) => w,
	publish = async (w) => await n8n.publishWorkflow(w.id, env),
}) {
	const workflow = fit(n8n.loadExample(EXAMPLE));
	const mailNode = workflow.nodes.find(
		(/** @type {any} */ n) => n.type === 'n8n-nodes-base.emailSend',
	);
	const trigger = workflow.nodes.find((/** @type {any} */ n) => n.type === TRIGGER_TYPE);
	trigger.credentials = { eventPicsApi: TRIGGER_CREDENTIAL };
	mailNode.credentials = { smtp: SMTP_CREDENTIAL };
	const credentialFile = path.join(work, 'trigger-credentials.json');
	fs.writeFileSync(
		credentialFile,
		JSON.stringify([
			{
				...SMTP_CREDENTIAL,
				type: 'smtp',
				data: {
					host: '127.0.0.1',
					port: smtpPort,
					secure: false,
					disableStartTls: true,
					user: '',
					password: '',
				},
			},
			{
				...TRIGGER_CREDENTIAL,
				type: 'eventPicsApi',
				data: { apiKey: emulator.otherApiKey, baseUrl: emulator.baseUrl },
			},
		]),
	);
	await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
	await n8n.importWorkflow(workflow, path.join(work, `${EXAMPLE}.json`), env);
	await publish(workflow);
	return workflow;
}

/**
 * @param {() => boolean} done
 * @param {number} timeoutMs
 * @param {() => string} what said when it did not happen
 */
async function waitFor(done, timeoutMs, what) {
	const deadline = Date.now() + timeoutMs;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`${what()} within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * @param {{
 *   server: import('./n8n').N8nServer,
 *   emulator: {
 *     addEvent: (event: any) => unknown,
 *     otherApiKey: string,
 *     requests: Array<{ url: string, status: number, headers: Record<string, unknown> }>,
 *   },
 *   sink: { mails: import('./smtp-sink').Mail[] },
 * }} options
 */
async function checkTriggerFires({ server, emulator, sink }) {
	const polls = () =>
		emulator.requests.filter(
			(request) =>
				request.url === '/geteventsandalbums' &&
				request.headers.authorization === `Bearer ${emulator.otherApiKey}` &&
				request.status !== 0,
		);
	// the activation poll, answered: the account's events are recorded before one is added
	await waitFor(
		() => polls().length > 0,
		60_000,
		() => `the trigger did not poll at activation:\n${server.log().slice(-2000)}`,
	);
	assert.equal(polls()[0].status, 200);
	assert.equal(sink.mails.length, 0, 'the trigger mailed about events that existed at activation');
	emulator.addEvent({ ...NEW_EVENT, apiKey: emulator.otherApiKey });
	await waitFor(
		() => sink.mails.length > 0,
		90_000,
		() => 'no mail arrived for the new event',
	);
	// another poll's worth of time would be a minute: one mail now, and it is about the new event
	await new Promise((resolve) => setTimeout(resolve, 1000));
	assert.equal(
		sink.mails.length,
		1,
		`expected one mail, got ${sink.mails.map((m) => m.subject).join(' | ')}`,
	);
	const [mail] = sink.mails;
	assert.deepEqual(mail.to, ['organizer@example.com']);
	assert.equal(mail.subject, `Your photo event "${NEW_EVENT.title}" is ready`);
	assert.match(
		mail.text,
		new RegExp(`Its link ID is ${NEW_EVENT.linkId}\\.\\r?\\nAlbums: Red carpet\\.`),
	);
	assert.ok(polls().length >= 2, 'the mail came without a second poll');
}

module.exports = { checkTriggerLoaded, publishTriggerExample, checkTriggerFires, EXAMPLE };
