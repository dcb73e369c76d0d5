// @ts-check
'use strict';

/**
 * The two workflows of the real-app benchmark (n8n.js): the same trigger and file reading, then
 * either the EventPics node (default settings) or the do-it-yourself HTTP Request pair.
 * `timed` names the nodes whose executionTime is summed.
 */

const { ALBUM, EVENT } = require('./common');
const { EMULATOR_CREDENTIAL } = require('../n8n-app/n8n');

/**
 * @param {string} name
 * @param {string} type
 * @param {number} typeVersion
 * @param {[number, number]} position
 * @param {object} parameters
 * @param {object} [extra]
 */
const node = (name, type, typeVersion, position, parameters, extra = {}) => ({
	id: `bench-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
	name,
	type,
	typeVersion,
	position,
	parameters,
	...extra,
});

/** @param {string} glob */
const start = (glob) => [
	node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
	node('Read files', 'n8n-nodes-base.readWriteFile', 1.1, [220, 0], {
		operation: 'read',
		fileSelector: glob,
		options: {},
	}),
];

/** @param {string} from @param {string} to @param {number} [index] */
const link = (from, to, index = 0) => ({ [from]: { main: [[{ node: to, type: 'main', index }]] } });

/** @param {{ glob: string }} options */
function nodeWorkflow({ glob }) {
	return {
		id: 'benchEventPicsNode',
		name: 'Bench: EventPics node',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			...start(glob),
			node(
				'Upload',
				'n8n-nodes-eventpics.eventPics',
				1,
				[440, 0],
				{
					resource: 'photo',
					operation: 'upload',
					simplify: false,
					event: { __rl: true, mode: 'id', value: EVENT },
					album: { __rl: true, mode: 'id', value: ALBUM },
					options: {},
				},
				{ credentials: { eventPicsApi: EMULATOR_CREDENTIAL } },
			),
		],
		connections: { ...link('Start', 'Read files'), ...link('Read files', 'Upload') },
		timed: ['Upload'],
	};
}

/** @param {{ glob: string, baseUrl: string, apiKey: string }} options */
function pairWorkflow({ glob, baseUrl, apiKey }) {
	const body = `={{ JSON.stringify({ apiKey: ${JSON.stringify(apiKey)}, linkId: ${JSON.stringify(EVENT)}, albumId: ${JSON.stringify(ALBUM)}, fileName: $binary.data.fileName }) }}`;
	return {
		id: 'benchHttpRequestPair',
		name: 'Bench: HTTP Request pair',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			...start(glob),
			node('Get upload URL', 'n8n-nodes-base.httpRequest', 4.2, [440, -120], {
				method: 'POST',
				url: `${baseUrl}/getuploadurl`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: body,
				options: {},
			}),
			node('Merge', 'n8n-nodes-base.merge', 3, [660, 0], {
				mode: 'combine',
				combineBy: 'combineByPosition',
				options: {},
			}),
			node('PUT file', 'n8n-nodes-base.httpRequest', 4.2, [880, 0], {
				method: 'PUT',
				url: '={{ $json.uploadUrl }}',
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'Content-Type', value: 'image/jpeg' }] },
				sendBody: true,
				contentType: 'binaryData',
				inputDataFieldName: 'data',
				options: {},
			}),
		],
		connections: {
			...link('Start', 'Read files'),
			'Read files': {
				main: [
					[
						{ node: 'Get upload URL', type: 'main', index: 0 },
						{ node: 'Merge', type: 'main', index: 1 },
					],
				],
			},
			...link('Get upload URL', 'Merge'),
			...link('Merge', 'PUT file'),
		},
		timed: ['Get upload URL', 'Merge', 'PUT file'],
	};
}

module.exports = { nodeWorkflow, pairWorkflow };
