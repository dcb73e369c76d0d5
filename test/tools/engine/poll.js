// @ts-check
'use strict';

/**
 * `createPoller(options)`: a poll trigger in an active workflow, as n8n runs it. n8n's CLI builds the
 * node's context with n8n-core's PollContext (mode 'trigger', the activation mode given) and ticks it
 * through n8n-core's PollTriggerExecutor: once at activation (an error there fails the activation),
 * then on its schedule (an error there becomes a failed execution, the workflow stays active).
 * The harness does the same, minus the database and the clock: `activate()` and `poll()` are the
 * ticks. What the CLI adds around the context is followed from n8n 2.41.1's
 * TriggerExecutionContextFactory.getExecutePollFunctions: `__emit` saves the static data and runs the
 * workflow from the trigger's output; `__emitError` records the error. The static data n8n would
 * have in its database (saved after activation and on every emit, not after a poll that found
 * nothing) is `saved()`; start another poller with it to see what survives a restart.
 */

const { Workflow } = require('n8n-workflow');
const { Container } = require('@n8n/di');
const { PollContext, PollTriggerExecutor } = require('n8n-core');

const { initEngine } = require('./engine');
const { installLogger, startCapture } = require('./logs');
const { createNodeTypes } = require('./node-types');
const { HarnessCredentialsHelper } = require('./credentials-helper');
const { buildAdditionalData } = require('./additional-data');
const { runWorkflow, completeNodes, plainStaticData } = require('./run');

/**
 * @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData
 * @typedef {import('n8n-workflow').IDataObject} IDataObject
 *
 * @typedef {object} PollerOptions
 * @property {string} nodeType key of `nodeTypes` of the poll node
 * @property {import('./node-types').NodeTypeMap} nodeTypes
 * @property {Record<string, import('n8n-workflow').ICredentialType>} [credentialTypes]
 * @property {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject>} [credentials]
 * @property {import('n8n-workflow').INodeParameters} [parameters] the trigger's parameters
 * @property {string} [nodeName] default 'Trigger'
 * @property {Array<Partial<import('n8n-workflow').INode> & { name: string, type: string }>} [nodes]
 *   the rest of the workflow, run after each emit (none: emits are only recorded)
 * @property {import('n8n-workflow').IConnections} [connections]
 * @property {IDataObject} [staticData] what n8n loaded from its database (a restart)
 * @property {import('n8n-workflow').WorkflowActivateMode} [activation] default 'activate'
 * @property {string} [credentialId] the id of the credentials in n8n's database (default: the type name)
 *
 * @typedef {object} PollTick
 * @property {INodeExecutionData[][] | null} emitted what the poll handed to n8n (null: nothing new)
 * @property {any} [error] the error of the poll (activation: thrown by activate() instead)
 * @property {import('./run').RunResult} [run] the execution the emit started, with `nodes`
 * @property {import('./logs').LogLine[]} logs
 */

/** @param {PollerOptions} options */
async function createPoller(options) {
	await initEngine();
	installLogger();
	const nodeName = options.nodeName ?? 'Trigger';
	const credentialTypes = options.credentialTypes ?? {};
	const credentials = Object.entries(options.credentials ?? {}).map(([type, data]) => ({
		id: options.credentialId ?? type,
		name: `${type} (harness)`,
		type,
		data,
	}));
	const triggerNode = { name: nodeName, type: options.nodeType, parameters: options.parameters ?? {} };
	const workflowNodes = [triggerNode, ...(options.nodes ?? [])];
	const nodes = completeNodes(workflowNodes, options.nodeTypes, new Set(Object.keys(options.credentials ?? {})));
	if (options.credentialId) {
		for (const ref of Object.values(nodes[0].credentials ?? {})) ref.id = options.credentialId;
	}
	const workflow = new Workflow({
		id: 'harness-poll-workflow',
		name: 'Harness poll workflow',
		nodes,
		connections: options.connections ?? {},
		active: true,
		nodeTypes: createNodeTypes(options.nodeTypes),
		settings: { executionOrder: 'v1' },
		staticData: options.staticData ? structuredClone(options.staticData) : undefined,
	});
	const node = /** @type {import('n8n-workflow').INode} */ (workflow.getNode(nodeName));
	const credentialsHelper = new HarnessCredentialsHelper({ credentialTypes, credentials });
	const additionalData = buildAdditionalData({
		credentialsHelper,
		executionId: '',
		mode: 'trigger',
	});

	/** @type {IDataObject} */
	let saved = structuredClone(options.staticData ?? {});
	/** n8n's WorkflowStaticDataService.saveStaticData: only when the data changed. */
	const save = () => {
		if (workflow.staticData.__dataChanged !== true) return;
		saved = plainStaticData(workflow);
		workflow.staticData.__dataChanged = false;
	};

	/** @type {PollTick | undefined} */
	let tick;
	/** @type {Promise<unknown> | undefined} */
	let running;
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		'trigger',
		options.activation ?? 'activate',
		(data) => {
			save();
			if (!tick) return;
			tick.emitted = data;
			if (!options.nodes?.length) return;
			running = runWorkflow({
				nodes: workflowNodes,
				connections: options.connections,
				nodeTypes: options.nodeTypes,
				credentialTypes,
				credentials: options.credentials,
				mode: 'trigger',
				triggerData: { node: nodeName, data },
			}).then((run) => tick && (tick.run = run));
		},
		(error) => {
			if (tick) tick.error = error;
		},
	);
	const executor = Container.get(PollTriggerExecutor);
	const execute = executor.create(workflow, node, context, () => true);

	/** @param {boolean} activation */
	const once = async (activation) => {
		const capture = startCapture();
		/** @type {PollTick} */
		const current = { emitted: null, logs: [] };
		tick = current;
		running = undefined;
		try {
			await execute(activation);
			if (activation) save(); // n8n saves the static data once the workflow is active
			await running;
		} finally {
			current.logs = capture.stop();
			tick = undefined;
		}
		return current;
	};

	return {
		workflow,
		/** The tick at activation; throws what would fail the activation. */
		activate: () => once(true),
		/** A scheduled tick. */
		poll: () => once(false),
		/** The static data as n8n has it in its database now. */
		saved: () => structuredClone(saved),
		/** The static data in memory (what the next tick sees). */
		current: () => plainStaticData(workflow),
		/**
		 * Edits the trigger's credential in place (a user pasting another key into the same credential).
		 * @param {string} type
		 * @param {import('n8n-workflow').ICredentialDataDecryptedObject} data
		 */
		editCredential: (type, data) => {
			const stored = credentialsHelper.store.get(options.credentialId ?? type);
			if (!stored) throw new Error(`No credential of type "${type}"`);
			stored.data = { ...stored.data, ...data };
		},
	};
}

module.exports = { createPoller };
