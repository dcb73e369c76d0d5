// @ts-check
'use strict';

/**
 * The harness start node: a small trigger-like node (no inputs) that emits the input items a
 * test gives, turning binary specs into stored binaries with the real node helpers.
 * A fresh instance is made per run so it can hold that run's items.
 */

const { isBinarySpec, materialiseSpec } = require('./binary');

const START_NODE_TYPE = 'n8n-harness.start';

/**
 * @typedef {{ json?: import('n8n-workflow').IDataObject,
 *   binary?: Record<string, import('n8n-workflow').IBinaryData | import('./binary').BinarySpec> }} InputItem
 */

/**
 * @param {InputItem[]} items
 * @returns {import('n8n-workflow').INodeType}
 */
function createStartNodeType(items) {
	return {
		description: {
			displayName: 'Harness Start',
			name: START_NODE_TYPE,
			group: ['trigger'],
			version: 1,
			description: 'Emits the input items given to the engine harness',
			defaults: { name: 'Start' },
			inputs: [],
			outputs: [/** @type {import('n8n-workflow').NodeConnectionType} */ ('main')],
			properties: [],
		},
		async execute() {
			/** @type {import('n8n-workflow').INodeExecutionData[]} */
			const out = [];
			for (let i = 0; i < items.length; i++) {
				const item = items[i] ?? {};
				/** @type {import('n8n-workflow').INodeExecutionData} */
				const produced = { json: structuredClone(item.json ?? {}) };
				if (item.binary) {
					/** @type {import('n8n-workflow').IBinaryKeyData} */
					const binary = {};
					for (const [key, value] of Object.entries(item.binary)) {
						binary[key] = isBinarySpec(value) ? await materialiseSpec(this, value) : { ...value };
					}
					produced.binary = binary;
				}
				out.push(produced);
			}
			return [out];
		},
	};
}

module.exports = { createStartNodeType, START_NODE_TYPE };
