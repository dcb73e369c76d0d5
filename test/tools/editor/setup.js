// @ts-check
'use strict';

/**
 * The real n8n app for the browser tier: a throw-away user folder with this package installed as
 * the Community Nodes panel does, three credentials (the emulator's key, a wrong key, a plain
 * http:// Base URL that is never contacted) and the workflows the checks open, then `n8n start` on
 * free ports and the owner account created through the REST API.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { loadExample } = require('../examples/examples');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const { ownerSession } = require('../n8n-app/owner');

const CREDENTIALS = {
	good: n8n.EMULATOR_CREDENTIAL,
	badKey: { id: 'eventpicsWrongKey1', name: 'EventPics (wrong key)' },
	plainHttp: { id: 'eventpicsPlainHttp1', name: 'EventPics (plain http)' },
};

/** A documentation-range address: the credential test refuses it before any connection. */
const PLAIN_HTTP_BASE_URL = 'http://192.0.2.10:8787';

const WORKFLOWS = {
	lists: { id: 'epEditorLists001', name: 'Editor: event and album lists' },
	stale: { id: 'epEditorStale001', name: 'Editor: album of another event' },
	badKey: { id: 'epEditorBadKey01', name: 'Editor: wrong key' },
};

/**
 * Manual trigger -> EventPics upload (source URL, never reached in these checks).
 * @param {{ id: string, name: string }} workflow
 * @param {{ id: string, name: string }} credential
 * @param {object} event
 * @param {object} album
 */
function uploadWorkflow(workflow, credential, event, album) {
	return {
		...workflow,
		nodes: [
			{
				id: 'a1',
				name: 'Run now',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'a2',
				name: 'Upload to EventPics',
				type: 'n8n-nodes-eventpics.eventPics',
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'photo',
					operation: 'upload',
					event,
					album,
					source: 'url',
					fileUrl: 'https://example.com/never-fetched.jpg',
				},
				credentials: { eventPicsApi: credential },
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Upload to EventPics', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/** @param {string} value @param {string} title */
const picked = (value, title) => ({ __rl: true, mode: 'list', value, cachedResultName: title });

/**
 * @returns {Promise<{ url: string, cookie: string, emulator: any, booth: string, close: () => Promise<void> }>}
 */
async function startApp() {
	await ensureN8n();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-editor-'));
	const userFolder = path.join(work, 'user');
	const logFile = path.join(work, 'log.txt');
	const emulator = await startEmulator({ storageDir: path.join(work, 'emulator') });
	/** @type {import('../n8n-app/n8n').N8nServer | undefined} */
	let server;
	const close = async () => {
		if (server) await server.stop();
		await emulator.close();
		fs.rmSync(work, { recursive: true, force: true });
	};
	try {
		await installIntoUserFolder(userFolder, logFile);
		const booth = path.join(work, 'booth', 'outbox');
		fs.mkdirSync(booth, { recursive: true });
		const env = n8n.n8nEnv(userFolder, { N8N_RESTRICT_FILE_ACCESS_TO: path.dirname(booth) });
		const credentialFile = path.join(work, 'credentials.json');
		/** @param {{ id: string, name: string }} c @param {{ apiKey: string, baseUrl: string }} data */
		const credential = (c, data) => ({
			...c,
			type: 'eventPicsApi',
			data,
		});
		fs.writeFileSync(
			credentialFile,
			JSON.stringify([
				credential(CREDENTIALS.good, { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl }),
				credential(CREDENTIALS.badKey, { apiKey: 'ep_wrong_key', baseUrl: emulator.baseUrl }),
				credential(CREDENTIALS.plainHttp, {
					apiKey: emulator.apiKey,
					baseUrl: PLAIN_HTTP_BASE_URL,
				}),
			]),
		);
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		const wedding = picked('wedding-anna-ben', "Anna & Ben's Wedding");
		const workflows = [
			loadExample('photo-booth-folder', { boothFolder: booth }),
			uploadWorkflow(WORKFLOWS.lists, CREDENTIALS.good, wedding, picked('booth', 'Photo booth')),
			uploadWorkflow(
				WORKFLOWS.stale,
				CREDENTIALS.good,
				picked('summer-party-2026', 'Summer Party 2026'),
				picked('booth', 'Photo booth'),
			),
			uploadWorkflow(WORKFLOWS.badKey, CREDENTIALS.badKey, picked('', ''), picked('', '')),
		];
		for (const [index, workflow] of workflows.entries()) {
			const file = path.join(work, `workflow-${index}.json`);
			fs.writeFileSync(file, JSON.stringify(workflow));
			await n8n.mustRun(['import:workflow', `--input=${file}`], env);
		}
		server = await n8n.startServer({
			env,
			port: await n8n.freePort(),
			brokerPort: await n8n.freePort(),
			logFile,
		});
		const cookie = await ownerSession(server.url);
		return { url: server.url, cookie, emulator, booth, close };
	} catch (error) {
		await close();
		throw error;
	}
}

module.exports = { startApp, CREDENTIALS, WORKFLOWS, PLAIN_HTTP_BASE_URL };
