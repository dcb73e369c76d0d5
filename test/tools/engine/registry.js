// @ts-check
'use strict';

/**
 * Shared set-up for one-off contexts (list search, load options, credential test): resolves
 * which node type is meant and builds the harness credentials helper from `{ type: data }`.
 */

const { HarnessCredentialsHelper } = require('./credentials-helper');

/**
 * @param {{ nodeType?: string | import('./node-types').AnyNodeType, nodeTypeName?: string,
 *   nodeTypes?: import('./node-types').NodeTypeMap }} options
 * @returns {{ typeName: string, typeMap: import('./node-types').NodeTypeMap }}
 */
function resolveNodeType(options) {
	const typeMap = { ...options.nodeTypes };
	if (typeof options.nodeType === 'string') return { typeName: options.nodeType, typeMap };
	if (options.nodeType) {
		const typeName = options.nodeTypeName ?? `harness-test.${options.nodeType.description.name}`;
		typeMap[typeName] = options.nodeType;
		return { typeName, typeMap };
	}
	const names = Object.keys(typeMap);
	if (names.length !== 1) throw new Error('Say which node type to use (nodeType)');
	return { typeName: names[0], typeMap };
}

/**
 * @param {Record<string, import('n8n-workflow').ICredentialType> | undefined} credentialTypes
 * @param {Record<string, import('n8n-workflow').ICredentialDataDecryptedObject> | undefined} credentials
 */
function credentialsHelperFor(credentialTypes, credentials) {
	return new HarnessCredentialsHelper({
		credentialTypes: credentialTypes ?? {},
		credentials: Object.entries(credentials ?? {}).map(([type, data]) => ({
			id: type,
			name: `${type} (harness)`,
			type,
			data,
		})),
	});
}

module.exports = { resolveNodeType, credentialsHelperFor };
