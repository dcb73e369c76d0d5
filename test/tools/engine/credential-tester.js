// @ts-check
'use strict';

/**
 * `testCredential`: what n8n's CredentialsTester (packages/cli/src/services/credentials-tester.service.ts)
 * does when the user clicks "Test" on a credential whose type has `test: ICredentialTestRequest`:
 * defaults applied to the data, a temporary node whose single property routes `test.request`,
 * run by n8n-core's real RoutingNode (baseURL resolved against `$credentials`, `authenticate`
 * applied, sent with the real HTTP helper), then `test.rules` evaluated, same messages as n8n.
 * A credential type without `test` falls back to a node's `testedBy` function if `nodeTypes` has one.
 */

const { Workflow, NodeHelpers } = require('n8n-workflow');
const { ExecuteContext, RoutingNode, CredentialTestContext } = require('n8n-core');

const { initEngine } = require('./engine');
const { installLogger, startCapture } = require('./logs');
const { buildAdditionalData } = require('./additional-data');
const { credentialsHelperFor } = require('./registry');

/** The node type n8n uses for request-based credential tests. */
const NOOP_TYPE = 'n8n-nodes-base.noOp';

/**
 * @typedef {{ status: 'OK' | 'Error', message: string }} CredentialTestResult
 * @typedef {object} TestCredentialOptions
 * @property {string | import('n8n-workflow').ICredentialType} credentialType a name (from
 *   `credentialTypes`) or the credential type instance
 * @property {Record<string, import('n8n-workflow').ICredentialType>} [credentialTypes]
 * @property {import('n8n-workflow').ICredentialDataDecryptedObject} credentials the credential's data as
 *   the user entered it (`{ apiKey, baseUrl }`); the `{ [typeName]: data }` form is accepted too
 * @property {import('./node-types').NodeTypeMap} [nodeTypes] only for `testedBy` function tests
 * @property {import('./logs').LogLine[]} [logs] if given, log lines of the test are appended here
 */

/**
 * @param {TestCredentialOptions} options
 * @returns {Promise<CredentialTestResult>}
 */
async function testCredential(options) {
	await initEngine();
	installLogger();
	const capture = startCapture();
	try {
		return await runTest(options);
	} finally {
		const lines = capture.stop();
		if (options.logs) options.logs.push(...lines);
	}
}

/**
 * @param {TestCredentialOptions} options
 * @returns {Promise<CredentialTestResult>}
 */
async function runTest(options) {
	const type =
		typeof options.credentialType === 'string'
			? options.credentialTypes?.[options.credentialType]
			: options.credentialType;
	if (!type) throw new Error(`Unknown credential type "${options.credentialType}"`);
	const typeName = type.name;
	let data = options.credentials ?? {};
	const wrapped = data[typeName];
	if (wrapped && typeof wrapped === 'object' && !type.properties.some((p) => p.name === typeName)) {
		data = /** @type {import('n8n-workflow').ICredentialDataDecryptedObject} */ (wrapped);
	}
	const credentialTypes = { ...options.credentialTypes, [typeName]: type };
	const helper = credentialsHelperFor(credentialTypes, { [typeName]: data });
	/** @type {import('n8n-workflow').ICredentialsDecrypted} */
	const credentialsDecrypted = { id: typeName, name: `${typeName} (harness)`, type: typeName, data };

	const functionTest = findTestedByFunction(typeName, options.nodeTypes);
	if (!type.test && !functionTest) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	try {
		const additionalData = buildAdditionalData({ credentialsHelper: helper, executionId: '', mode: 'internal' });
		credentialsDecrypted.data = await helper.applyDefaultsAndOverwrites(
			additionalData,
			/** @type {any} */ (credentialsDecrypted.data),
			typeName,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: error.message.toString() };
	}

	if (!type.test && functionTest) {
		const context = new CredentialTestContext();
		return await functionTest.call(context, credentialsDecrypted);
	}
	const testRequest = /** @type {import('n8n-workflow').ICredentialTestRequest} */ (type.test);

	/** @type {import('n8n-workflow').INodeType} */
	const nodeTypeCopy = {
		description: {
			displayName: 'No Operation, do nothing',
			name: NOOP_TYPE,
			group: ['organization'],
			version: 1,
			description: '',
			defaults: { name: 'No Operation, do nothing' },
			inputs: [/** @type {any} */ ('main')],
			outputs: [/** @type {any} */ ('main')],
			credentials: [{ name: typeName, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	};
	/** @type {import('n8n-workflow').INode} */
	const node = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NOOP_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [typeName]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeTypeCopy,
			getByNameAndVersion: (_name, version) => NodeHelpers.getVersionedNodeType(nodeTypeCopy, version),
			getKnownTypes: () => ({}),
		},
	});
	const additionalData = buildAdditionalData({ credentialsHelper: helper, executionId: '', mode: 'internal' });
	/** @type {import('n8n-workflow').IRunExecutionData} */
	const runExecutionData = /** @type {any} */ ({ resultData: { runData: {} } });
	/** @type {import('n8n-workflow').IExecuteData} */
	const executeData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return { status: 'Error', message: statusMessage || `Received HTTP status code: ${statusCode}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message.toString() };
	}

	if (Array.isArray(testRequest.rules)) {
		for (const rule of testRequest.rules) {
			if (rule.type === 'responseSuccessBody') {
				const responseData = response?.[0]?.[0]?.json;
				if (getPath(responseData, rule.properties.key) === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/**
 * lodash.get for dotted/bracketed paths (what n8n uses to read `responseSuccessBody` keys).
 * @param {unknown} object
 * @param {string} path
 */
function getPath(object, path) {
	/** @type {any} */
	let current = object;
	for (const key of path.replace(/\[(\w+)\]/g, '.$1').split('.').filter(Boolean)) {
		if (current === null || current === undefined) return undefined;
		current = current[key];
	}
	return current;
}

/**
 * A `testedBy: 'functionName'` test declared by a node type for this credential.
 * @param {string} typeName
 * @param {import('./node-types').NodeTypeMap | undefined} nodeTypes
 * @returns {import('n8n-workflow').ICredentialTestFunction | undefined}
 */
function findTestedByFunction(typeName, nodeTypes) {
	for (const type of Object.values(nodeTypes ?? {})) {
		const versions = 'nodeVersions' in type ? Object.values(type.nodeVersions) : [type];
		for (const version of versions) {
			for (const { name, testedBy } of version.description.credentials ?? []) {
				if (name === typeName && typeof testedBy === 'string') {
					const fn = version.methods?.credentialTest?.[testedBy];
					if (fn) return fn;
				}
			}
		}
	}
	return undefined;
}

module.exports = { testCredential };
