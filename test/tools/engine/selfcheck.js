#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Plain-node self-check of the engine harness (no jest): `node test/tools/engine/selfcheck.js`.
 * Runs Start -> a tiny uploader node (stored binary streamed over HTTP with a generic
 * `authenticate` credential) through the real engine, a credential test and a list search,
 * against a local server on 127.0.0.1. Exits 0 and prints one line when all is well.
 */

const assert = require('node:assert/strict');
const { createHash } = require('node:crypto');

const engine = require('./index');
const { startTinyServer } = require('./tiny-server');

const KEY = 'selfcheck-key';

/** @param {string} baseUrl @returns {import('n8n-workflow').ICredentialType} */
const credentialType = (baseUrl) => ({
	name: 'selfcheckApi',
	displayName: 'Self-check API',
	properties: [
		{ displayName: 'Key', name: 'apiKey', type: 'string', default: '' },
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: baseUrl },
	],
	authenticate: { type: 'generic', properties: { headers: { 'X-Key': '={{$credentials.apiKey}}' } } },
	test: { request: { baseURL: '={{$credentials.baseUrl}}', url: '/ping' } },
});

/** @type {import('n8n-workflow').INodeType} */
const uploader = {
	description: {
		displayName: 'Self-check Uploader',
		name: 'selfcheckUploader',
		group: ['output'],
		version: 1,
		description: 'self-check',
		defaults: { name: 'Uploader' },
		inputs: [/** @type {any} */ ('main')],
		outputs: [/** @type {any} */ ('main')],
		credentials: [{ name: 'selfcheckApi', required: true }],
		properties: [],
	},
	methods: {
		listSearch: {
			async search(filter) {
				const { baseUrl } = await this.getCredentials('selfcheckApi');
				const res = await this.helpers.httpRequestWithAuthentication.call(this, 'selfcheckApi', {
					url: `${baseUrl}/list`,
					qs: { filter },
					json: true,
				});
				return { results: res.items };
			},
		},
	},
	async execute() {
		const items = this.getInputData();
		const { baseUrl } = await this.getCredentials('selfcheckApi');
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const binary = this.helpers.assertBinaryData(i, 'data');
			const id = /** @type {string} */ (binary.id);
			const { fileSize, mimeType } = await this.helpers.getBinaryMetadata(id);
			const res = await this.helpers.httpRequestWithAuthentication.call(this, 'selfcheckApi', {
				method: 'PUT',
				url: `${baseUrl}/upload`,
				body: await this.helpers.getBinaryStream(id),
				headers: { 'content-type': mimeType, 'content-length': fileSize },
				json: true,
			});
			out.push({ json: { ...res, id }, pairedItem: { item: i } });
		}
		return [out];
	},
};

async function main() {
	const started = Date.now();
	const server = await startTinyServer((req) => {
		if (req.headers['x-key'] !== KEY) return { status: 401, json: { message: 'bad key' } };
		if (req.url.startsWith('/list')) return { json: { items: [{ name: 'One', value: '1' }] } };
		if (req.url === '/upload') return { json: { sha256: createHash('sha256').update(req.body).digest('hex') } };
		return { json: { ok: true } };
	});
	try {
		const bytes = Buffer.alloc(100_000, 7);
		const credentialTypes = { selfcheckApi: credentialType(server.url) };
		const credentials = { selfcheckApi: { apiKey: KEY } };

		const run = await engine.runNode({
			nodeType: uploader,
			credentialTypes,
			credentials,
			inputItems: [{ json: {}, binary: { data: engine.binaryFromBuffer(bytes, { fileName: 'a.bin', mimeType: 'application/octet-stream' }) } }],
		});
		assert.equal(run.error, undefined, `run failed: ${run.error?.message}`);
		assert.equal(run.items[0].json.sha256, createHash('sha256').update(bytes).digest('hex'));
		assert.match(String(run.items[0].json.id), /^filesystem-v2:/);
		const upload = server.requests.find((r) => r.url === '/upload');
		assert.equal(upload?.headers['content-length'], String(bytes.length));
		assert.equal(upload?.headers['x-key'], KEY);
		assert.ok(!run.text().includes(KEY), 'the key appears in outputs or logs');

		assert.deepEqual(await engine.testCredential({ credentialType: credentialTypes.selfcheckApi, credentials: { apiKey: KEY } }), {
			status: 'OK',
			message: 'Connection successful!',
		});
		assert.equal(
			(await engine.testCredential({ credentialType: credentialTypes.selfcheckApi, credentials: { apiKey: 'nope' } })).status,
			'Error',
		);
		const list = await engine.callListSearch({ nodeType: uploader, methodName: 'search', credentialTypes, credentials, filter: 'o' });
		assert.deepEqual(list.results, [{ name: 'One', value: '1' }]);

		const { binaryStoragePath } = await engine.initEngine();
		process.stdout.write(`engine harness self-check OK in ${Date.now() - started} ms (binary store: ${binaryStoragePath})\n`);
	} finally {
		await server.close();
	}
}

main().catch((error) => {
	process.stderr.write(`engine harness self-check FAILED: ${error.stack ?? error}\n`);
	process.exit(1);
});
