// @ts-check
'use strict';

/**
 * The workflows the queue-mode tier runs. Each starts with a Webhook (production URL, so the main
 * queues the execution and a worker runs it), uploads with the EventPics node and answers through
 * Respond to Webhook with the execution's id and the upload node's output, so the caller sees
 * every file's result and can tell which worker ran the execution (the worker logs the id).
 */

const { EMULATOR_CREDENTIAL } = require('../n8n-app/n8n');

/**
 * @param {{ id: string, path: string, uploadParameters: Record<string, unknown> }} spec
 */
function webhookUploadWorkflow(spec) {
	return {
		id: spec.id,
		name: `Queue tier: ${spec.path}`,
		nodes: [
			{
				id: `${spec.id}-hook`,
				name: 'Files in',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${spec.id}-webhook`,
				parameters: {
					httpMethod: 'POST',
					path: spec.path,
					responseMode: 'responseNode',
					options: {},
				},
			},
			{
				id: `${spec.id}-upload`,
				name: 'Upload to EventPics',
				type: 'n8n-nodes-eventpics.eventPics',
				typeVersion: 1,
				position: [260, 0],
				credentials: { eventPicsApi: EMULATOR_CREDENTIAL },
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'photo',
					operation: 'upload',
					simplify: false,
					event: { __rl: true, mode: 'id', value: 'wedding-anna-ben' },
					album: { __rl: true, mode: 'id', value: 'booth' },
					...spec.uploadParameters,
				},
			},
			{
				id: `${spec.id}-respond`,
				name: 'Answer',
				type: 'n8n-nodes-base.respondToWebhook',
				typeVersion: 1.1,
				position: [520, 0],
				parameters: {
					respondWith: 'json',
					responseBody:
						'={{ JSON.stringify({ executionId: $execution.id, results: $input.all().map(item => item.json) }) }}',
					options: {},
				},
			},
		],
		connections: {
			'Files in': { main: [[{ node: 'Upload to EventPics', type: 'main', index: 0 }]] },
			'Upload to EventPics': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Many photos per execution, every binary field of the item, skipping files uploaded before. */
const BATCH = webhookUploadWorkflow({
	id: 'epQueueBatch0001',
	path: 'queue-batch',
	uploadParameters: {
		allBinaryFields: true,
		takenAtMode: 'none',
		options: { concurrency: 4, skipUploaded: { settings: { identifyBy: 'content' } }, maxAttempts: 8, maxTotalWaitSeconds: 300 },
	},
});

/** One large file, no duplicate check (it would read the whole file once more for its hash). */
const LARGE = webhookUploadWorkflow({
	id: 'epQueueLarge0001',
	path: 'queue-large',
	uploadParameters: {
		allBinaryFields: true,
		takenAtMode: 'none',
		options: { concurrency: 1 },
	},
});

/** One file from a URL (the expression reads it from the posted JSON). */
const FROM_URL = webhookUploadWorkflow({
	id: 'epQueueUrl000001',
	path: 'queue-url',
	uploadParameters: {
		source: 'url',
		fileUrl: '={{ $json.body.url }}',
		takenAtMode: 'none',
		options: { concurrency: 1, maxAttempts: 1 },
	},
});

module.exports = { BATCH, LARGE, FROM_URL, webhookUploadWorkflow };
