// @ts-check
'use strict';

/**
 * The workflows the night tier runs, as data. A booth shape is one of:
 *
 *   example        examples/photo-booth-folder.json as a user imports it (whatever it holds today:
 *                  Schedule -> Read/Write Files -> Upload, or the event-driven Local File Trigger ->
 *                  Keep New Files -> Read/Write Files -> Upload)
 *   schedule       a user's own: Schedule -> Read/Write Files from Disk (<folder>/*.jpg) -> Upload
 *                  with Skip Files Uploaded Before by content
 *   files          event-driven: Local File Trigger (add and change, Await Write Finish, existing
 *                  files not ignored, names containing ".tmp" ignored) -> Keep New Files (File ID =
 *                  the path; left out when the product has no such operation) -> Read/Write Files
 *                  from Disk (that path) -> Upload skipping by the same File ID
 *   <file>.json    any workflow file, adapted the same way
 *
 * Adapting a booth workflow: the example's booth folder (/srv/booth/outbox) becomes the night's
 * folder, an empty Event and Album are picked as the list would (the emulator's demo event and
 * album), and every Schedule Trigger runs every `scheduleSeconds` instead of its own interval.
 *
 * The drive shape: Webhook (as a schedule's run, started when the tier asks, in the running n8n; it
 * answers once the run ends) -> HTTP Request (the listing) -> Split Out -> EventPics Keep New
 * Files (File ID {{ $json.id }}) -> HTTP Request (the body, as a file) -> EventPics Upload, skipping
 * by the same File ID read through the paired item. Keep New Files is left out when the product has
 * no such operation yet (then every run downloads every body: the "before" figure).
 *
 * What the product offers is read from its build (`productFeatures`), so the same tool runs the
 * package before and after Keep New Files and the new Skip Files Uploaded Before option.
 */

const fs = require('node:fs');
const path = require('node:path');
const { loadExample, EMULATOR_TARGET, BOOTH_FOLDER_PLACEHOLDER } = require('../examples/examples');
const { EMULATOR_CREDENTIAL } = require('../n8n-app/n8n');

const EVENTPICS = 'n8n-nodes-eventpics.eventPics';
const TARGET_EVENT = { __rl: true, mode: 'id', value: EMULATOR_TARGET.linkId };
const TARGET_ALBUM = { __rl: true, mode: 'id', value: EMULATOR_TARGET.albumId };

/**
 * @typedef {object} ProductFeatures
 * @property {number} version the EventPics node's newest version
 * @property {boolean} keepNew Photo > Keep New Files exists
 * @property {'skipUploaded' | 'skipDuplicates'} skipOption how Upload's Skip Files Uploaded Before is set
 */

/**
 * What the built node (dist/) offers.
 * @param {string} distDir
 * @returns {ProductFeatures}
 */
function productFeatures(distDir) {
	const file = path.join(distDir, 'nodes', 'EventPics', 'EventPics.node.js');
	const { EventPics } = require(file);
	const description = new EventPics().description;
	/** @type {any[]} */
	const properties = description.properties;
	const operations = properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => (p.options ?? []).map((/** @type {any} */ o) => o.value));
	const options = properties
		.filter((p) => p.name === 'options' && p.type === 'collection')
		.flatMap((p) => (p.options ?? []).map((/** @type {any} */ o) => o.name));
	return {
		version: Math.max(...[description.version].flat()),
		keepNew: operations.includes('keepNew'),
		skipOption: options.includes('skipUploaded') ? 'skipUploaded' : 'skipDuplicates',
	};
}

/**
 * Upload's options that skip files uploaded before: by content, or by a File ID expression.
 * @param {ProductFeatures} product
 * @param {string} [fileId] an expression; by content when absent
 */
function skipOptions(product, fileId) {
	if (product.skipOption === 'skipUploaded') {
		const settings = fileId ? { identifyBy: 'fileId', fileId } : { identifyBy: 'content' };
		return { skipUploaded: { settings } };
	}
	return fileId ? { skipDuplicates: true, dedupeKey: fileId } : { skipDuplicates: true };
}

/**
 * @param {string} name
 * @param {string} type
 * @param {number} typeVersion
 * @param {number} x
 * @param {object} parameters
 * @param {object} [extra]
 */
const node = (name, type, typeVersion, x, parameters, extra = {}) => ({
	id: `night-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
	name,
	type,
	typeVersion,
	position: [x, 0],
	parameters,
	...extra,
});

/** @param {string[]} names the nodes in order, each feeding the next */
function chain(names) {
	/** @type {Record<string, any>} */
	const connections = {};
	for (let i = 0; i + 1 < names.length; i++)
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return connections;
}

/** @param {ProductFeatures} product @param {string} name @param {number} x @param {object} parameters */
const eventPics = (product, name, x, parameters) =>
	node(
		name,
		EVENTPICS,
		product.version,
		x,
		{ resource: 'photo', event: TARGET_EVENT, album: TARGET_ALBUM, ...parameters },
		{ credentials: { eventPicsApi: EMULATOR_CREDENTIAL } },
	);

/**
 * A user's own scheduled booth import: the folder read whole at every run, Upload skipping by content.
 * @param {ProductFeatures} product
 * @param {string} folder
 */
function scheduleWorkflow(product, folder) {
	return {
		id: 'nightBoothSchedule',
		name: 'Night: booth folder on a schedule',
		settings: { executionOrder: 'v1' },
		nodes: [
			// its interval is the night's (boothWorkflow)
			node('Schedule', 'n8n-nodes-base.scheduleTrigger', 1.2, 0, {
				rule: { interval: [{ field: 'minutes', minutesInterval: 1 }] },
			}),
			node('Read booth photos', 'n8n-nodes-base.readWriteFile', 1.1, 220, {
				operation: 'read',
				fileSelector: `${folder.replace(/\\/g, '/')}/*.jpg`,
				options: {},
			}),
			eventPics(product, 'Upload to EventPics', 440, {
				operation: 'upload',
				binaryPropertyName: 'data',
				options: skipOptions(product),
			}),
		],
		connections: chain(['Schedule', 'Read booth photos', 'Upload to EventPics']),
	};
}

/**
 * The Local File Trigger as n8n 2.41.1 has it (n8n-nodes-base/dist/nodes/LocalFileTrigger): its
 * Ignore option is matched by chokidar 4, which has no globs (a string matches one exact path);
 * Ignore Mode "Contain" (or no Ignore Mode at all: the node then tests `path.includes(ignored)`)
 * is what ignores a temporary name.
 * @param {string} folder
 */
const localFileTrigger = (folder) =>
	node('Watch booth folder', 'n8n-nodes-base.localFileTrigger', 1, 0, {
		triggerOn: 'folder',
		path: folder,
		events: ['add', 'change'],
		options: {
			awaitWriteFinish: true,
			ignoreInitial: false,
			ignored: '.tmp',
			ignoreMode: 'contain',
			depth: 0,
		},
	});

/**
 * The event-driven booth import (see the top of this file).
 * @param {ProductFeatures} product
 * @param {string} folder
 */
function filesWorkflow(product, folder) {
	const fileId = "={{ $('Watch booth folder').item.json.path }}";
	const names = ['Watch booth folder'];
	const nodes = [localFileTrigger(folder)];
	if (product.keepNew) {
		names.push('Keep new photos');
		nodes.push(eventPics(product, 'Keep new photos', 220, { operation: 'keepNew', fileId }));
	}
	names.push('Read the photo', 'Upload to EventPics');
	nodes.push(
		node('Read the photo', 'n8n-nodes-base.readWriteFile', 1.1, 440, {
			operation: 'read',
			fileSelector: "={{ $('Watch booth folder').item.json.path }}",
			options: {},
		}),
		eventPics(product, 'Upload to EventPics', 660, {
			operation: 'upload',
			binaryPropertyName: 'data',
			options: skipOptions(product, fileId),
		}),
	);
	return {
		id: 'nightBoothFiles',
		name: 'Night: booth folder watched (Local File Trigger)',
		settings: { executionOrder: 'v1' },
		nodes,
		connections: chain(names),
	};
}

/**
 * The booth workflow of a shape, adapted to the night (see the top of this file).
 * @param {{ shape: string, folder: string, scheduleSeconds: number, product: ProductFeatures }} options
 * @returns {any}
 */
function boothWorkflow({ shape, folder, scheduleSeconds, product }) {
	let workflow;
	if (shape === 'example')
		workflow = loadExample('photo-booth-folder', { boothFolder: folder, target: EMULATOR_TARGET });
	else if (shape === 'schedule') workflow = scheduleWorkflow(product, folder);
	else if (shape === 'files') workflow = filesWorkflow(product, folder);
	else if (shape.endsWith('.json')) {
		const text = fs
			.readFileSync(shape, 'utf8')
			.split(BOOTH_FOLDER_PLACEHOLDER)
			.join(folder.replace(/\\/g, '/'));
		workflow = JSON.parse(text);
	} else
		throw new Error(`No booth shape "${shape}": example, schedule, files or a workflow .json file`);
	for (const n of workflow.nodes) {
		if (n.type === 'n8n-nodes-base.scheduleTrigger')
			n.parameters.rule = { interval: [{ field: 'seconds', secondsInterval: scheduleSeconds }] };
		if (n.type === EVENTPICS) {
			/** @type {Array<[string, object]>} */
			const targets = [
				['event', TARGET_EVENT],
				['album', TARGET_ALBUM],
			];
			for (const [field, value] of targets) {
				const current = n.parameters[field];
				if (!current || current.value === '') n.parameters[field] = { ...value };
			}
		}
	}
	return workflow;
}

/** @param {any} workflow @param {string} type */
const hasNode = (workflow, type) => workflow.nodes.some((/** @type {any} */ n) => n.type === type);

/**
 * How a booth workflow is started: by a schedule, by the folder's events, or both.
 * @param {any} workflow
 */
function triggerKind(workflow) {
	const schedule = hasNode(workflow, 'n8n-nodes-base.scheduleTrigger');
	const files = hasNode(workflow, 'n8n-nodes-base.localFileTrigger');
	return files ? (schedule ? 'files+schedule' : 'files') : schedule ? 'schedule' : 'none';
}

/** The production webhook's path of the drive import: GET <n8n>/webhook/<it> runs it. */
const DRIVE_WEBHOOK = 'night-drive-import';

/**
 * The drive-shaped import (see the top of this file).
 * @param {{ product: ProductFeatures, driveUrl: string }} options
 */
function driveWorkflow({ product, driveUrl }) {
	const names = ['Start', 'List files', 'Each file'];
	const nodes = [
		node(
			'Start',
			'n8n-nodes-base.webhook',
			2,
			0,
			{
				httpMethod: 'GET',
				path: DRIVE_WEBHOOK,
				responseMode: 'lastNode',
				responseData: 'noData',
				options: {},
			},
			{ webhookId: 'b1d7c2e4-3f5a-4e6b-8c9d-0a1b2c3d4e5f' },
		),
		node('List files', 'n8n-nodes-base.httpRequest', 4.2, 200, {
			url: `${driveUrl}/drive/v3/files`,
			options: {},
		}),
		node('Each file', 'n8n-nodes-base.splitOut', 1, 400, { fieldToSplitOut: 'files', options: {} }),
	];
	if (product.keepNew) {
		names.push('Keep new files');
		nodes.push(
			eventPics(product, 'Keep new files', 600, {
				operation: 'keepNew',
				fileId: '={{ $json.id }}',
			}),
		);
	}
	names.push('Download file', 'Upload to EventPics');
	nodes.push(
		node('Download file', 'n8n-nodes-base.httpRequest', 4.2, 800, {
			url: `=${driveUrl}/drive/v3/files/{{ $json.id }}?alt=media`,
			options: { response: { response: { responseFormat: 'file' } } },
		}),
		eventPics(product, 'Upload to EventPics', 1000, {
			operation: 'upload',
			binaryPropertyName: 'data',
			// the download's items hold the file, not the listing's JSON: the ID comes through the
			// paired item of the listing's entry
			options: skipOptions(product, "={{ $('Each file').item.json.id }}"),
		}),
	);
	return {
		id: product.keepNew ? 'nightDriveKeepNew' : 'nightDriveUploadSkips',
		name: product.keepNew
			? 'Night: drive import (Keep New Files before the download)'
			: 'Night: drive import (Upload skips, every body downloaded)',
		settings: { executionOrder: 'v1' },
		nodes,
		connections: chain(names),
	};
}

module.exports = {
	productFeatures,
	skipOptions,
	boothWorkflow,
	driveWorkflow,
	DRIVE_WEBHOOK,
	triggerKind,
	EVENTPICS,
};
