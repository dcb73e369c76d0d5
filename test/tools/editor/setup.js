// @ts-check
'use strict';

/**
 * The real n8n app for the browser tier: a throw-away user folder with this package installed as
 * the Community Nodes panel does, five credentials (the emulator's key, a wrong key, a plain
 * http:// Base URL that is never contacted, an address without https://, a port where nothing
 * listens) and the workflows the checks open, then `n8n start` on
 * free ports and the owner account created through the REST API.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmulator } = require('../emulator');
const { EMULATOR_TARGET, loadExample } = require('../examples/examples');
const { ensureN8n } = require('../n8n-app/install');
const { installIntoUserFolder } = require('../n8n-app/community-install');
const n8n = require('../n8n-app/n8n');
const { ownerSession } = require('../n8n-app/owner');

const CREDENTIALS = {
	good: n8n.EMULATOR_CREDENTIAL,
	badKey: { id: 'eventpicsWrongKey1', name: 'EventPics (wrong key)' },
	plainHttp: { id: 'eventpicsPlainHttp1', name: 'EventPics (plain http)' },
	noScheme: { id: 'eventpicsNoSchema1', name: 'EventPics (no https://)' },
	nothingListens: { id: 'eventpicsNoServer1', name: 'EventPics (nothing listens)' },
};

const PHOTO = path.join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');

/** A documentation-range address: the credential test refuses it before any connection. */
const PLAIN_HTTP_BASE_URL = 'http://192.0.2.10:8787';

const WORKFLOWS = {
	lists: { id: 'epEditorLists001', name: 'Editor: event and album lists' },
	stale: { id: 'epEditorStale001', name: 'Editor: album of another event' },
	badKey: { id: 'epEditorBadKey01', name: 'Editor: wrong key' },
	outcomes: { id: 'epEditorOutcome1', name: 'Editor: uploaded, skipped and failed' },
	agent: { id: 'epEditorAgent001', name: 'Editor: EventPics Tool as added' },
	agentRun: { id: 'epEditorAgentRun', name: 'Editor: EventPics Tool, one test run' },
	agentExample: {
		id: 'epExampleAgent01',
		name: 'EventPics example: AI agent with EventPics tools',
	},
	fromInput: { id: 'epEditorFromItem', name: 'Editor: Event and Album from the item' },
};

/** @param {string} value @param {string} title */
const picked = (value, title) => ({ __rl: true, mode: 'list', value, cachedResultName: title });

/**
 * Manual trigger -> Read/Write Files from Disk (a folder) -> EventPics upload that skips files
 * uploaded before and goes on when one fails: one run shows all three outcomes.
 * @param {string} folder
 */
function outcomesWorkflow(folder) {
	return {
		...WORKFLOWS.outcomes,
		nodes: [
			{
				id: 'o1',
				name: 'Run now',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'o2',
				name: 'Read photos',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { operation: 'read', fileSelector: `${folder}/*.jpg`, options: {} },
			},
			{
				id: 'o3',
				name: 'Upload to EventPics',
				type: 'n8n-nodes-eventpics.eventPics',
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'photo',
					operation: 'upload',
					simplify: false,
					event: picked('wedding-anna-ben', "Anna & Ben's Wedding"),
					album: picked('booth', 'Photo booth'),
					takenAtMode: 'none',
					options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 1 },
				},
				credentials: { eventPicsApi: CREDENTIALS.good },
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Read photos', type: 'main', index: 0 }]] },
			'Read photos': { main: [[{ node: 'Upload to EventPics', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/**
 * Chat trigger -> AI Agent with "EventPics Tool" added as n8n adds it: only the credential set
 * (and `parameters`, for a test run that fetches from this machine).
 * @param {{ id: string, name: string }} workflow @param {string} toolName @param {object} parameters
 */
function agentWorkflow(workflow = WORKFLOWS.agent, toolName = 'EventPics', parameters = {}) {
	return {
		...workflow,
		nodes: [
			{
				id: 'g1',
				name: 'Chat',
				type: '@n8n/n8n-nodes-langchain.chatTrigger',
				typeVersion: 1.5,
				position: [0, 0],
				webhookId: '5f0c8d7e-2a4b-4c3d-9e1f-7a6b5c4d3e2f',
				parameters: { options: {} },
			},
			{
				id: 'g2',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [240, 0],
				parameters: { options: {} },
			},
			{
				id: 'g3',
				name: toolName,
				type: 'n8n-nodes-eventpics.eventPicsTool',
				typeVersion: 1,
				position: [400, 220],
				parameters,
				credentials: { eventPicsApi: CREDENTIALS.good },
			},
		],
		connections: {
			Chat: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			[toolName]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/**
 * Manual trigger -> Edit Fields (an item naming the event, the album and a file's address, as a form
 * or a sheet would) -> EventPics upload with Event, Album and File URL as expressions on the item.
 * @param {string} fileUrl
 */
function fromInputWorkflow(fileUrl) {
	/** @param {string} name @param {string} value */
	const field = (name, value) => ({ id: name, name, value, type: 'string' });
	/** @param {string} name */
	const fromItem = (name) => ({ __rl: true, mode: 'id', value: `={{ $json.${name} }}` });
	return {
		...WORKFLOWS.fromInput,
		nodes: [
			{
				id: 'i1',
				name: 'Run now',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'i2',
				name: 'Photo to send',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					assignments: {
						assignments: [
							field('linkId', 'wedding-anna-ben'),
							field('albumId', 'ceremony'),
							field('fileUrl', fileUrl),
						],
					},
					options: {},
				},
			},
			{
				id: 'i3',
				name: 'Upload to EventPics',
				type: 'n8n-nodes-eventpics.eventPics',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'photo',
					operation: 'upload',
					simplify: false,
					event: fromItem('linkId'),
					album: fromItem('albumId'),
					source: 'url',
					fileUrl: '={{ $json.fileUrl }}',
					takenAtMode: 'none',
					// the file is served by the emulator on this machine
					options: { allowInternalAddresses: true },
				},
				credentials: { eventPicsApi: CREDENTIALS.good },
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Photo to send', type: 'main', index: 0 }]] },
			'Photo to send': { main: [[{ node: 'Upload to EventPics', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
}

/**
 * The shipped AI agent example, its upload tool allowed to fetch from this machine (where the
 * emulator serves the test's file).
 */
function agentExample() {
	const workflow = loadExample('ai-agent-tools');
	const upload = workflow.nodes.find((/** @type {any} */ n) => n.name === 'Upload photo from URL');
	upload.parameters.options = { allowInternalAddresses: true };
	return workflow;
}

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
					simplify: false,
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

/**
 * @returns {Promise<{ url: string, cookie: string, emulator: any, booth: string, mixed: string, formUrl: string, close: () => Promise<void> }>}
 */
async function startApp() {
	const form = loadExample('form-to-album', { target: EMULATOR_TARGET });
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
		const mixed = path.join(work, 'booth', 'mixed');
		fs.mkdirSync(mixed, { recursive: true });
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
				credential(CREDENTIALS.noScheme, { apiKey: emulator.apiKey, baseUrl: 'api.eventpics.net' }),
				// a loopback port nobody listens on (free a moment ago): the connection is refused
				credential(CREDENTIALS.nothingListens, {
					apiKey: emulator.apiKey,
					baseUrl: `http://127.0.0.1:${await n8n.freePort()}`,
				}),
			]),
		);
		await n8n.mustRun(['import:credentials', `--input=${credentialFile}`], env);
		const wedding = picked('wedding-anna-ben', "Anna & Ben's Wedding");
		const workflows = [
			// as a user imports it: Event and Album still to be picked
			loadExample('photo-booth-folder', { boothFolder: booth }),
			form,
			outcomesWorkflow(mixed),
			agentWorkflow(),
			// the tool as added, allowed to fetch the emulator's file on this machine
			agentWorkflow(WORKFLOWS.agentRun, 'Upload', {
				resource: 'photo',
				operation: 'upload',
				simplify: false,
				options: { allowInternalAddresses: true },
			}),
			agentExample(),
			fromInputWorkflow(emulator.addDownload('cake.jpg', fs.readFileSync(PHOTO))),
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
		await n8n.mustRun(['publish:workflow', `--id=${form.id}`], env);
		server = await n8n.startServer({
			env,
			port: await n8n.freePort(),
			brokerPort: await n8n.freePort(),
			logFile,
		});
		const cookie = await ownerSession(server.url);
		const formPath = form.nodes.find((/** @type {any} */ n) => n.name === 'Photo form').parameters
			.options.path;
		return {
			url: server.url,
			cookie,
			emulator,
			booth,
			mixed,
			formUrl: `${server.url}/form/${formPath}`,
			close,
		};
	} catch (error) {
		await close();
		throw error;
	}
}

module.exports = { startApp, CREDENTIALS, WORKFLOWS, PLAIN_HTTP_BASE_URL };
