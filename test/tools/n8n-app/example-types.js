// @ts-check
'use strict';

/**
 * The examples against the node types a real n8n loaded (`n8n export:nodes`): every node of every
 * example must be a type n8n has at the version it runs, and every parameter it sets, down into
 * collections and fixed collections (an option of Upload's Options, a setting of Skip Files Uploaded
 * Before, an option of the Local File Trigger), one that type has. A renamed option in the node, or
 * a node n8n keeps turned off (n8n 2.x leaves the Local File Trigger out unless NODES_EXCLUDE says
 * otherwise), is named here before any workflow runs.
 */

const { EXAMPLES, loadExample } = require('../examples/examples');

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @param {any[]} properties the type's properties at this level (several may share a name)
 * @param {Record<string, any>} values what the example sets at this level
 * @param {string} where e.g. `photo-booth-folder: "Upload to EventPics"`
 * @returns {string[]} what the type does not have
 */
function unknownParameters(properties, values, where) {
	/** @type {string[]} */
	const problems = [];
	for (const [name, value] of Object.entries(values)) {
		const defs = properties.filter((p) => p.name === name);
		if (defs.length === 0) {
			problems.push(`${where} sets "${name}", which the node does not have`);
			continue;
		}
		if (!isObject(value) || value.__rl) continue;
		const inner = `${where} > ${name}`;
		if (defs.some((d) => d.type === 'collection'))
			problems.push(
				...unknownParameters(
					defs.flatMap((d) => d.options ?? []),
					value,
					inner,
				),
			);
		if (!defs.some((d) => d.type === 'fixedCollection')) continue;
		const groups = defs.flatMap((d) => d.options ?? []);
		for (const [group, entries] of Object.entries(value)) {
			const fields = groups.filter((g) => g.name === group).flatMap((g) => g.values ?? []);
			if (fields.length === 0)
				problems.push(`${inner} sets "${group}", which the node does not have`);
			for (const entry of [entries].flat())
				if (isObject(entry))
					problems.push(...unknownParameters(fields, entry, `${inner} > ${group}`));
		}
	}
	return problems;
}

/**
 * @param {any[]} types what `n8n export:nodes` wrote
 * @param {(node: any) => number} versionOf the version of a node this n8n runs (check.js fits an
 *   example's newer node versions to an older n8n)
 * @returns {string[]} every node type or parameter of the examples the loaded types do not have
 */
function examplesAgainstTypes(types, versionOf) {
	/** @type {string[]} */
	const problems = [];
	for (const { name: example } of EXAMPLES) {
		for (const node of loadExample(example).nodes) {
			const version = versionOf(node);
			const type = types.find((t) => t.name === node.type && [t.version].flat().includes(version));
			if (!type) {
				problems.push(
					`${example}: "${node.name}" is ${node.type} ${version}, which n8n did not load`,
				);
				continue;
			}
			// n8n adds the poll interval to every polling node
			const properties = type.polling
				? [...type.properties, { name: 'pollTimes', type: 'fixedCollection', options: [] }]
				: type.properties;
			const parameters = type.polling ? { ...node.parameters, pollTimes: {} } : node.parameters;
			problems.push(...unknownParameters(properties, parameters, `${example}: "${node.name}"`));
		}
	}
	return problems;
}

module.exports = { examplesAgainstTypes, unknownParameters };
