// @ts-check
'use strict';

/**
 * `callListSearch` / `callLoadOptions`: run a node type's `methods.listSearch[name]` /
 * `methods.loadOptions[name]` the way n8n's DynamicNodeParametersService does: a one-node
 * workflow ("Temp-Node") holding the current parameters and credentials, and n8n-core's real
 * LoadOptionsContext (so getCredentials, getNodeParameter, getCurrentNodeParameter(s) and
 * helpers.httpRequestWithAuthentication behave as in the editor).
 */

const { Workflow, NodeHelpers } = require('n8n-workflow');
const { LoadOptionsContext } = require('n8n-core');

const { initEngine } = require('./engine');
const { installLogger, startCapture } = require('./logs');
const { createNodeTypes, describe, latestVersion } = require('./node-types');
const { buildAdditionalData } = require('./additional-data');
const { resolveNodeType, credentialsHelperFor } = require('./registry');

/**
 * @typedef {object} MethodCallOptions
 * @property {string | import('./node-types').AnyNodeType} [nodeType] key of `nodeTypes` or an instance
 * @property {string} [nodeTypeName]
 * @property {import('./node-types').NodeTypeMap} [nodeTypes]
 * @property {number} [typeVersion]
 * @property {string} methodName
 * @property {import('n8n-workflow').INodeParameters} [parameters] the node's current parameters
 *   (defaults of the node type are filled in, as the editor holds them)
 * @property {Record<string, import('n8n-workflow').ICredentialType>} [credentialTypes]
 * @property {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject>} [credentials]
 *   `{ type: data }`; attached to the node for every credential type it declares
 * @property {string} [path] the parameter path the editor sends (e.g. 'parameters.albumId'); used for
 *   `getCurrentNodeParameter('&sibling')`
 * @property {import('./logs').LogLine[]} [logs] if given, log lines of the call are appended here
 */

/**
 * @param {'listSearch' | 'loadOptions'} kind
 * @param {MethodCallOptions} options
 * @param {unknown[]} args
 */
async function callMethod(kind, options, args) {
	await initEngine();
	installLogger();
	const capture = startCapture();
	try {
		const { typeName, typeMap } = resolveNodeType(options);
		const type = typeMap[typeName];
		const typeVersion = options.typeVersion ?? latestVersion(type);
		const description = describe(type, typeVersion);
		const method = NodeHelpers.getVersionedNodeType(type, typeVersion).methods?.[kind]?.[options.methodName];
		if (typeof method !== 'function') {
			throw new Error(`Node type "${typeName}" has no ${kind} method "${options.methodName}"`);
		}
		/** @type {import('n8n-workflow').INode} */
		const node = {
			parameters: options.parameters ?? {},
			id: 'uuid-1234',
			name: 'Temp-Node',
			type: typeName,
			typeVersion,
			position: [0, 0],
		};
		const credentialTypeNames = Object.keys(options.credentials ?? {});
		for (const { name } of description.credentials ?? []) {
			if (credentialTypeNames.includes(name)) {
				node.credentials = { ...node.credentials, [name]: { id: name, name: `${name} (harness)` } };
			}
		}
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: createNodeTypes(typeMap),
		});
		const tempNode = /** @type {import('n8n-workflow').INode} */ (workflow.getNode('Temp-Node'));
		const currentNodeParameters =
			NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ??
			node.parameters;
		const additionalData = buildAdditionalData({
			credentialsHelper: credentialsHelperFor(options.credentialTypes, options.credentials),
			executionId: '',
			mode: 'internal',
			currentNodeParameters,
		});
		const context = new LoadOptionsContext(workflow, tempNode, additionalData, options.path ?? '');
		return await /** @type {Function} */ (method).call(context, ...args);
	} finally {
		const lines = capture.stop();
		if (options.logs) options.logs.push(...lines);
	}
}

/**
 * @param {MethodCallOptions & { filter?: string, paginationToken?: string }} options
 * @returns {Promise<import('n8n-workflow').INodeListSearchResult>}
 */
async function callListSearch(options) {
	return await callMethod('listSearch', options, [options.filter, options.paginationToken]);
}

/**
 * @param {MethodCallOptions} options
 * @returns {Promise<import('n8n-workflow').INodePropertyOptions[]>}
 */
async function callLoadOptions(options) {
	return await callMethod('loadOptions', options, []);
}

module.exports = { callListSearch, callLoadOptions };
