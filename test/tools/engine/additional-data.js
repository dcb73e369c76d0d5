// @ts-check
'use strict';

/**
 * Builds IWorkflowExecuteAdditionalData the way n8n's CLI does for a manual run
 * (packages/cli/src/workflow-execute-additional-data.ts, getBase), minus the database:
 * the credentials helper is the harness one, hooks are a real ExecutionLifecycleHooks, and every
 * URL field is an absolute URL (n8n-core parses them; empty ones throw `Invalid URL`).
 * Sub-workflow execution and task runners are not available in the harness and say so.
 */

const { ExecutionLifecycleHooks } = require('n8n-core');

/** Where a local n8n would listen; nothing is contacted there. */
const INSTANCE_BASE_URL = 'http://localhost:5678/';

/**
 * @param {string} what
 * @returns {() => Promise<never>}
 */
const unsupported = (what) => async () => {
	throw new Error(`${what} is not supported by the engine harness`);
};

/**
 * @param {{
 *   credentialsHelper: import('n8n-workflow').ICredentialsHelper,
 *   executionId: string,
 *   hooks?: ExecutionLifecycleHooks,
 *   workflowData?: import('n8n-workflow').IWorkflowBase,
 *   mode?: import('n8n-workflow').WorkflowExecuteMode,
 *   variables?: import('n8n-workflow').IDataObject,
 *   currentNodeParameters?: import('n8n-workflow').INodeParameters,
 *   executionTimeoutTimestamp?: number,
 * }} options
 * @returns {import('n8n-workflow').IWorkflowExecuteAdditionalData}
 */
function buildAdditionalData(options) {
	const mode = options.mode ?? 'manual';
	const base = INSTANCE_BASE_URL;
	/** @type {any} */
	const data = {
		credentialsHelper: options.credentialsHelper,
		executionId: options.executionId,
		executeWorkflow: unsupported('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('A task runner (Code node)'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		variables: options.variables ?? {},
		restApiUrl: `${base}rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}form`,
		formWaitingBaseUrl: `${base}form-waiting`,
		formTestBaseUrl: `${base}form-test`,
		webhookBaseUrl: `${base}webhook`,
		webhookWaitingBaseUrl: `${base}webhook-waiting`,
		webhookTestBaseUrl: `${base}webhook-test`,
		mcpBaseUrl: `${base}mcp`,
		mcpTestBaseUrl: `${base}mcp-test`,
		userId: 'harness-user',
		rootExecutionMode: mode,
	};
	if (options.currentNodeParameters) data.currentNodeParameters = options.currentNodeParameters;
	if (options.executionTimeoutTimestamp) data.executionTimeoutTimestamp = options.executionTimeoutTimestamp;
	if (options.workflowData) {
		data.workflowId = options.workflowData.id;
		data.hooks = options.hooks ?? new ExecutionLifecycleHooks(mode, options.executionId, options.workflowData);
	} else if (options.hooks) {
		data.hooks = options.hooks;
	}
	return data;
}

module.exports = { buildAdditionalData, INSTANCE_BASE_URL };
