// @ts-check
'use strict';

/**
 * Runs workflows through n8n-core's real WorkflowExecute (v1 execution order, manual mode),
 * with the real Workflow class, expression engine, node execution contexts, HTTP helpers and
 * filesystem BinaryDataService. Only the database-backed parts of n8n are replaced
 * (credentials store, execution persistence).
 */

const { Workflow } = require('n8n-workflow');
const { WorkflowExecute, ExecutionLifecycleHooks } = require('n8n-core');

const { initEngine } = require('./engine');
const { installLogger, startCapture, toPlain } = require('./logs');
const { createNodeTypes, describe } = require('./node-types');
const { HarnessCredentialsHelper } = require('./credentials-helper');
const { buildAdditionalData } = require('./additional-data');
const { createStartNodeType, START_NODE_TYPE } = require('./start-node');

/**
 * @typedef {import('n8n-workflow').INode} INode
 * @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData
 * @typedef {import('n8n-workflow').IConnections} IConnections
 * @typedef {import('./node-types').NodeTypeMap} NodeTypeMap
 * @typedef {Record<string, import('n8n-workflow').ICredentialType>} CredentialTypeMap
 * @typedef {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject>} CredentialsByType
 * @typedef {import('./start-node').InputItem} InputItem
 * @typedef {import('./logs').LogLine} LogLine
 *
 * @typedef {object} RunWorkflowOptions
 * @property {Array<Partial<INode> & { name: string, type: string }>} nodes
 *   `id`, `typeVersion` (latest), `position` and `parameters` ({}) may be omitted.
 * @property {IConnections} [connections]
 * @property {NodeTypeMap} [nodeTypes] `{ 'package.nodeName': instance }`
 * @property {CredentialTypeMap} [credentialTypes] `{ eventPicsApi: instance }`
 * @property {CredentialsByType} [credentials] `{ eventPicsApi: { apiKey, baseUrl } }`: one credential
 *   per type (id = the type name); attached to every node whose type declares that credential
 *   and that has none set.
 * @property {InputItem[]} [inputItems] items the harness start node (type `n8n-harness.start`) emits
 * @property {import('n8n-workflow').IPinData} [pinData]
 * @property {string} [startNode] name of the node to start from (default: the first node without inputs)
 * @property {string} [destinationNode] run only up to (and including) this node
 * @property {import('n8n-workflow').IWorkflowSettings} [settings] merged over `{ executionOrder: 'v1' }`
 * @property {import('n8n-workflow').WorkflowExecuteMode} [mode] default 'manual'
 * @property {number} [timeoutMs] workflow execution timeout (n8n's executionTimeout), none by default
 * @property {{ node: string, data: INodeExecutionData[][] }} [triggerData] run as n8n runs an execution
 *   that a trigger or poll started: the workflow goes on from `node` with `data` as its output
 *   (n8n's WorkflowExecutionService.runWorkflow: a node execution stack, processRunExecutionData)
 * @property {import('n8n-workflow').IDataObject} [staticData] the workflow's static data (n8n loads it
 *   from the database); the run's changes are in `run`'s workflow, see RunResult.staticData
 *
 * @typedef {object} RunResult
 * @property {import('n8n-workflow').IRun} run the raw IRun from WorkflowExecute
 * @property {string} status execution status ('success' | 'error' | ...)
 * @property {Record<string, INodeExecutionData[]>} outputs first output of each executed node (last run)
 * @property {Record<string, INodeExecutionData[][]>} allOutputs every output of each executed node (last run)
 * @property {Record<string, import('n8n-workflow').NodeExecutionHint[]>} hints the execution hints
 *   each executed node added (last run), as n8n's editor shows them in the output pane
 * @property {Record<string, any>} nodeErrors the error of each node that failed (the engine's error object:
 *   NodeApiError / NodeOperationError with message, description, httpCode...)
 * @property {any} error the workflow-level error (a node failed without continue-on-fail), else undefined
 * @property {LogLine[]} logs every log line of the run (engine, LoggerProxy, node `this.logger`)
 * @property {() => string} text everything above (outputs, errors with all own properties and
 *   stacks, logs) as one string, for searching e.g. that an API key appears nowhere
 * @property {string} executionId
 * @property {HarnessCredentialsHelper} credentialsHelper the run's credentials helper
 * @property {import('n8n-workflow').IDataObject} [staticData] the workflow's static data after the run
 */

let executionCounter = 0;

/**
 * @param {Array<Partial<INode> & { name: string, type: string }>} nodes
 * @param {NodeTypeMap} typeMap
 * @param {Set<string>} credentialTypeNames
 * @returns {INode[]}
 */
function completeNodes(nodes, typeMap, credentialTypeNames) {
	return nodes.map((n, index) => {
		const type = typeMap[n.type];
		if (!type) throw new Error(`Unknown node type "${n.type}" for node "${n.name}"`);
		const typeVersion = n.typeVersion ?? latest(type);
		/** @type {INode} */
		const node = {
			id: n.id ?? `node-${index + 1}`,
			position: n.position ?? [index * 200, 0],
			parameters: {},
			...structuredClone(n),
			typeVersion,
		};
		const declared = describe(type, typeVersion).credentials ?? [];
		for (const { name } of declared) {
			if (credentialTypeNames.has(name) && !node.credentials?.[name]) {
				node.credentials = { ...node.credentials, [name]: { id: name, name: `${name} (harness)` } };
			}
		}
		return node;
	});
}

/** @param {import('./node-types').AnyNodeType} type */
function latest(type) {
	return require('./node-types').latestVersion(type);
}

/**
 * @param {RunWorkflowOptions} options
 * @returns {Promise<RunResult>}
 */
async function runWorkflow(options) {
	await initEngine();
	installLogger();
	const capture = startCapture();
	try {
		return await execute(options, capture.lines);
	} finally {
		capture.stop();
	}
}

/**
 * @param {RunWorkflowOptions} options
 * @param {LogLine[]} logs
 * @returns {Promise<RunResult>}
 */
async function execute(options, logs) {
	const executionId = String(++executionCounter);
	const mode = options.mode ?? 'manual';
	/** @type {NodeTypeMap} */
	const typeMap = { ...options.nodeTypes, [START_NODE_TYPE]: createStartNodeType(options.inputItems ?? [{ json: {} }]) };
	const credentialsHelper = new HarnessCredentialsHelper({
		credentialTypes: options.credentialTypes ?? {},
		credentials: Object.entries(options.credentials ?? {}).map(([type, data]) => ({
			id: type,
			name: `${type} (harness)`,
			type,
			data,
		})),
	});
	const nodes = completeNodes(options.nodes, typeMap, new Set(Object.keys(options.credentials ?? {})));
	const connections = options.connections ?? {};
	const settings = { executionOrder: /** @type {const} */ ('v1'), ...options.settings };
	const workflowData = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes,
		connections,
		active: false,
		isArchived: false,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes: createNodeTypes(typeMap),
		settings,
		pinData: options.pinData,
		staticData: options.staticData ? structuredClone(options.staticData) : undefined,
	});
	const hooks = new ExecutionLifecycleHooks(mode, executionId, /** @type {any} */ (workflowData));
	const additionalData = buildAdditionalData({
		credentialsHelper,
		executionId,
		hooks,
		workflowData: /** @type {any} */ (workflowData),
		mode,
		executionTimeoutTimestamp: options.timeoutMs ? Date.now() + options.timeoutMs : undefined,
	});

	const run = options.triggerData
		? await runFromTrigger(workflow, additionalData, mode, options.triggerData)
		: await new WorkflowExecute(additionalData, mode).run({
				workflow,
				startNode: options.startNode
					? workflow.getNode(options.startNode) ?? undefined
					: nodes.find((n) => describe(typeMap[n.type], n.typeVersion).inputs.length === 0),
				destinationNode: options.destinationNode
					? { nodeName: options.destinationNode, mode: 'inclusive' }
					: undefined,
				pinData: options.pinData,
			});
	return { ...buildResult(run, logs, executionId, credentialsHelper), staticData: plainStaticData(workflow) };
}

/**
 * The workflow goes on from a trigger's output, as n8n runs an execution a trigger or poll started.
 * @param {Workflow} workflow
 * @param {import('n8n-workflow').IWorkflowExecuteAdditionalData} additionalData
 * @param {import('n8n-workflow').WorkflowExecuteMode} mode
 * @param {{ node: string, data: INodeExecutionData[][] }} triggerData
 */
async function runFromTrigger(workflow, additionalData, mode, triggerData) {
	const { createRunExecutionData } = require('n8n-workflow');
	const node = workflow.getNode(triggerData.node);
	if (!node) throw new Error(`No node "${triggerData.node}" to go on from`);
	const executionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node, data: { main: triggerData.data }, source: null }] },
	});
	return await new WorkflowExecute(additionalData, mode, executionData).processRunExecutionData(workflow);
}

/**
 * The workflow's static data as n8n saves it (a plain copy, without the change flag).
 * @param {Workflow} workflow
 * @returns {import('n8n-workflow').IDataObject}
 */
function plainStaticData(workflow) {
	const { __dataChanged, ...data } = /** @type {import('n8n-workflow').IDataObject} */ (
		JSON.parse(JSON.stringify(workflow.staticData))
	);
	return data;
}

/**
 * @param {import('n8n-workflow').IRun} run
 * @param {LogLine[]} logs
 * @param {string} executionId
 * @param {HarnessCredentialsHelper} credentialsHelper
 * @returns {RunResult}
 */
function buildResult(run, logs, executionId, credentialsHelper) {
	/** @type {Record<string, INodeExecutionData[]>} */
	const outputs = {};
	/** @type {Record<string, INodeExecutionData[][]>} */
	const allOutputs = {};
	/** @type {Record<string, import('n8n-workflow').NodeExecutionHint[]>} */
	const hints = {};
	/** @type {Record<string, any>} */
	const nodeErrors = {};
	const runData = run.data.resultData.runData;
	for (const [name, tasks] of Object.entries(runData)) {
		const task = tasks[tasks.length - 1];
		if (!task) continue;
		const main = /** @type {INodeExecutionData[][]} */ (task.data?.main ?? []).map((o) => o ?? []);
		allOutputs[name] = main;
		outputs[name] = main[0] ?? [];
		hints[name] = task.hints ?? [];
		if (task.error) nodeErrors[name] = task.error;
	}
	const error = run.data.resultData.error;
	return {
		run,
		status: run.status,
		outputs,
		allOutputs,
		hints,
		nodeErrors,
		error,
		logs,
		executionId,
		credentialsHelper,
		text: () =>
			JSON.stringify(toPlain({ outputs: allOutputs, nodeErrors, error, logs, runData })),
	};
}

module.exports = { runWorkflow, completeNodes, plainStaticData };
