// @ts-check
'use strict';

/**
 * An INodeTypes registry over a plain map `{ 'package.nodeName': instance }`, as n8n's
 * NodeTypes service is for loaded nodes.
 */

const { NodeHelpers } = require('n8n-workflow');

/**
 * @typedef {import('n8n-workflow').INodeType | import('n8n-workflow').IVersionedNodeType} AnyNodeType
 * @typedef {Record<string, AnyNodeType>} NodeTypeMap
 */

/**
 * @param {NodeTypeMap} map
 * @returns {import('n8n-workflow').INodeTypes}
 */
function createNodeTypes(map) {
	/** @param {string} name */
	const get = (name) => {
		const type = map[name];
		if (!type) {
			throw new Error(
				`Unknown node type "${name}" (the harness knows: ${Object.keys(map).join(', ') || 'none'})`,
			);
		}
		return type;
	};
	return {
		getByName: (name) => get(name),
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(get(name), version),
		getKnownTypes: () =>
			Object.fromEntries(Object.keys(map).map((name) => [name, { className: name, sourcePath: '' }])),
	};
}

/**
 * The node type's description for a given version (versioned types resolved).
 * @param {AnyNodeType} type
 * @param {number} [version]
 */
function describe(type, version) {
	return NodeHelpers.getVersionedNodeType(type, version).description;
}

/**
 * Latest version number of a node type.
 * @param {AnyNodeType} type
 * @returns {number}
 */
function latestVersion(type) {
	if ('nodeVersions' in type) return type.currentVersion;
	const v = type.description.version;
	return Array.isArray(v) ? Math.max(...v) : v;
}

module.exports = { createNodeTypes, describe, latestVersion };
