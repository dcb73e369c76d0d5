// @ts-check
'use strict';

/**
 * `runNode`: the common test shape "start -> node under test" as a two-node workflow run by the
 * real engine. The start node is the harness's own `n8n-harness.start`, which emits `inputItems`
 * (binary specs become stored binaries with ids, see binary.js).
 */

const { runWorkflow } = require('./run');
const { START_NODE_TYPE } = require('./start-node');

/**
 * @typedef {import('./run').RunWorkflowOptions} RunWorkflowOptions
 * @typedef {import('./run').RunResult} RunResult
 * @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData
 *
 * @typedef {object} RunNodeOptions
 * @property {string | import('./node-types').AnyNodeType} [nodeType] the node under test: a key of
 *   `nodeTypes`, or an instance (registered as `nodeTypeName`, default `harness-test.<description.name>`);
 *   may be omitted when `nodeTypes` has exactly one entry
 * @property {string} [nodeTypeName]
 * @property {import('./node-types').NodeTypeMap} [nodeTypes]
 * @property {import('n8n-workflow').INodeParameters} [parameters]
 * @property {number} [typeVersion] default: latest
 * @property {string} [nodeName] default 'Node Under Test'
 * @property {RunWorkflowOptions['credentialTypes']} [credentialTypes]
 * @property {RunWorkflowOptions['credentials']} [credentials]
 * @property {RunWorkflowOptions['inputItems']} [inputItems] default: one empty item, as Manual Trigger emits
 * @property {boolean} [continueOnFail] sets `onError: 'continueRegularOutput'` on the node
 * @property {'stopWorkflow'|'continueRegularOutput'|'continueErrorOutput'} [onError]
 * @property {Partial<import('n8n-workflow').INode>} [nodeOptions] other INode fields
 *   (retryOnFail, maxTries, waitBetweenTries, alwaysOutputData, executeOnce, credentials, ...)
 * @property {RunWorkflowOptions['pinData']} [pinData] (pin 'Start' to feed the node from pinned data)
 * @property {RunWorkflowOptions['settings']} [settings]
 * @property {RunWorkflowOptions['mode']} [mode] the execution mode, default 'manual'
 * @property {number} [timeoutMs]
 *
 * @typedef {RunResult & { nodeName: string, items: INodeExecutionData[], nodeHints: import('n8n-workflow').NodeExecutionHint[], nodeError: any }} RunNodeResult
 *   `items`: the node's first output; `nodeError`: the node's error (also when continue-on-fail
 *   turned it into items it is undefined, since the node then succeeded)
 */

/**
 * @param {RunNodeOptions} options
 * @returns {Promise<RunNodeResult>}
 */
async function runNode(options) {
	const nodeTypes = { ...options.nodeTypes };
	/** @type {string} */
	let typeName;
	if (typeof options.nodeType === 'string') {
		typeName = options.nodeType;
	} else if (options.nodeType) {
		typeName = options.nodeTypeName ?? `harness-test.${options.nodeType.description.name}`;
		nodeTypes[typeName] = options.nodeType;
	} else {
		const names = Object.keys(nodeTypes);
		if (names.length !== 1) throw new Error('runNode: say which node type to run (nodeType)');
		typeName = names[0];
	}
	const nodeName = options.nodeName ?? 'Node Under Test';
	const onError = options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : undefined);
	/** @type {Partial<import('n8n-workflow').INode> & { name: string, type: string }} */
	const node = {
		name: nodeName,
		type: typeName,
		parameters: options.parameters ?? {},
		...options.nodeOptions,
	};
	if (options.typeVersion !== undefined) node.typeVersion = options.typeVersion;
	if (onError) node.onError = onError;
	const result = await runWorkflow({
		nodes: [{ name: 'Start', type: START_NODE_TYPE, typeVersion: 1 }, node],
		connections: { Start: { main: [[{ node: nodeName, type: /** @type {any} */ ('main'), index: 0 }]] } },
		nodeTypes,
		credentialTypes: options.credentialTypes,
		credentials: options.credentials,
		inputItems: options.inputItems,
		pinData: options.pinData,
		settings: options.settings,
		mode: options.mode,
		timeoutMs: options.timeoutMs,
	});
	return {
		...result,
		nodeName,
		items: result.outputs[nodeName] ?? [],
		nodeHints: result.hints[nodeName] ?? [],
		nodeError: result.nodeErrors[nodeName],
	};
}

module.exports = { runNode };
