// @ts-check
'use strict';

/**
 * The run that dedupeCrash.test.ts kills: the compiled node (dist/) in the real engine, Photo >
 * Upload with Skip Files Uploaded Before of every file in a folder, its deduplication store kept in
 * the file N8N_HARNESS_DEDUP_FILE (as n8n keeps it in its database).
 *
 *   N8N_HARNESS_DEDUP_FILE=<file> node crashChild.js <baseUrl> <apiKey> <folder>
 */

const fs = require('node:fs');
const path = require('node:path');
const engine = require('../../tools/engine');

const ROOT = path.join(__dirname, '..', '..', '..');
/** Another build to kill (e.g. main's, to see the test fail there): CRASH_CHILD_DIST=<dist folder>. */
const DIST = process.env.CRASH_CHILD_DIST || path.join(ROOT, 'dist');
const { EventPics } = require(path.join(DIST, 'nodes', 'EventPics', 'EventPics.node.js'));
const { EventPicsApi } = require(path.join(DIST, 'credentials', 'EventPicsApi.credentials.js'));

const [baseUrl, apiKey, folder] = process.argv.slice(2);

async function main() {
	const names = fs.readdirSync(folder).sort();
	const result = await engine.runNode({
		nodeType: 'n8n-nodes-eventpics.eventPics',
		nodeTypes: { 'n8n-nodes-eventpics.eventPics': new EventPics() },
		credentialTypes: { eventPicsApi: new EventPicsApi() },
		credentials: { eventPicsApi: { apiKey, baseUrl } },
		parameters: {
			resource: 'photo',
			operation: 'upload',
			simplify: false,
			event: { __rl: true, mode: 'list', value: 'wedding-anna-ben' },
			album: { __rl: true, mode: 'list', value: 'booth' },
			takenAtMode: 'none',
			options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 4 },
		},
		inputItems: names.map((name) => ({
			json: {},
			binary: { data: engine.binaryFromFile(path.join(folder, name), { fileName: name }) },
		})),
	});
	process.stdout.write(`finished ${result.status}\n`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
