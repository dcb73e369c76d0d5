// @ts-check
'use strict';

/**
 * `createEngine(defaults)`: the harness functions with shared defaults (nodeTypes,
 * credentialTypes, credentials), so a test file states its registries once:
 *   const engine = createEngine({ nodeTypes, credentialTypes, credentials });
 *   await engine.runNode({ nodeType: 'n8n-nodes-eventpics.eventPics', parameters });
 * Options given to a call win over the defaults (maps are merged, the call's entries first).
 */

const { runWorkflow } = require('./run');
const { runNode } = require('./run-node');
const { callListSearch, callLoadOptions } = require('./load-options');
const { testCredential } = require('./credential-tester');

/**
 * @typedef {object} EngineDefaults
 * @property {import('./node-types').NodeTypeMap} [nodeTypes]
 * @property {Record<string, import('n8n-workflow').ICredentialType>} [credentialTypes]
 * @property {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject>} [credentials]
 */

/**
 * @param {EngineDefaults} defaults
 */
function createEngine(defaults = {}) {
	/**
	 * @template {{ nodeTypes?: any, credentialTypes?: any, credentials?: any }} T
	 * @param {T} options
	 * @returns {T}
	 */
	const merge = (options) => ({
		...options,
		nodeTypes: { ...defaults.nodeTypes, ...options.nodeTypes },
		credentialTypes: { ...defaults.credentialTypes, ...options.credentialTypes },
		credentials: 'credentials' in options ? options.credentials : defaults.credentials,
	});
	return {
		defaults,
		/** @param {import('./run').RunWorkflowOptions} options */
		runWorkflow: (options) => runWorkflow(merge(options)),
		/** @param {import('./run-node').RunNodeOptions} options */
		runNode: (options) => runNode(merge(options)),
		/** @param {Parameters<typeof callListSearch>[0]} options */
		callListSearch: (options) => callListSearch(merge(options)),
		/** @param {Parameters<typeof callLoadOptions>[0]} options */
		callLoadOptions: (options) => callLoadOptions(merge(options)),
		/** @param {Parameters<typeof testCredential>[0]} options */
		testCredential: (options) =>
			testCredential({
				...options,
				credentialTypes: { ...defaults.credentialTypes, ...options.credentialTypes },
				nodeTypes: { ...defaults.nodeTypes, ...options.nodeTypes },
			}),
	};
}

module.exports = { createEngine };
