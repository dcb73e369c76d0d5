// @ts-check
'use strict';

/**
 * A node as an AI agent meets it in n8n 2.41, with n8n-core's own code:
 * - `toolVariant(nodeType)`: the "<Node> Tool" type n8n makes of a node with `usableAsTool`. n8n
 *   does this in its server package (packages/cli, NodeTypes.getByNameAndVersion for a synthetic
 *   tool and tool-generation/ai-tools.ts convertNodeToAiTool), which this repository does not
 *   install; the parts that decide what a model is offered are redone here: the type's name gets
 *   "Tool" (n8n's display option `@tool` is true for such names), no main input, one `ai_tool`
 *   output. n8n would also add its "Tool Description" fields to a node without a `toolDescription`
 *   parameter; ours has its own, so nothing is added (checked here). `npm run test:n8n` compares
 *   this with the real app's tool type.
 * - `AGENT_TYPE`: a stand-in for n8n's AI Agent. It gets its tools through n8n-core's
 *   getInputConnectionData (createNodeAsTool: name, description and the schema of the `$fromAI()`
 *   fields), records what a model is offered (OpenAI's function format, as LangChain converts a
 *   tool for the model), and calls tools the way AI Agent v3 does: it answers with an engine request
 *   and n8n-core's WorkflowExecute runs the tool node and hands the results back.
 */

const path = require('node:path');
const { NodeConnectionTypes } = require('n8n-workflow');

// the LangChain copy n8n-core's createNodeAsTool uses
const langchain = path.dirname(require.resolve('n8n-core/package.json'));
const { convertToOpenAITool } = require(
	require.resolve('@langchain/core/utils/function_calling', { paths: [langchain] }),
);

/** The type name of a node's tool variant, as n8n forms it. @param {string} type */
const toolTypeName = (type) => `${type}Tool`;

/**
 * @param {import('n8n-workflow').INodeType} nodeType a node with `usableAsTool`
 * @returns {import('n8n-workflow').INodeType}
 */
function toolVariant(nodeType) {
	const base = nodeType.description;
	if (!base.usableAsTool) throw new Error(`${base.name} is not usable as a tool`);
	// n8n adds its own "Tool Description" fields only to a node without a `toolDescription`
	if (!base.properties.some((property) => property.name === 'toolDescription'))
		throw new Error(`${base.name} has no toolDescription: n8n would add its own (not redone here)`);
	const { usableAsTool, ...rest } = base;
	void usableAsTool;
	/** @type {import('n8n-workflow').INodeType} */
	const tool = Object.create(nodeType);
	tool.description = {
		...rest,
		name: toolTypeName(base.name),
		displayName: `${base.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	return tool;
}

/**
 * What a model is offered for a tool: OpenAI's function format, as LangChain converts it.
 * @param {any} tool a LangChain tool from createNodeAsTool
 * @returns {{ name: string, description: string, parameters: any }}
 */
function offered(tool) {
	const { function: fn } = convertToOpenAITool(tool);
	return { name: fn.name, description: fn.description, parameters: fn.parameters };
}

const AGENT_TYPE_NAME = 'n8n-harness.agent';

/**
 * The agent stand-in. Parameter `calls`: JSON, `[{ tool, args }]`. Its output: one item with
 * `offered` (every connected tool as the model sees it) and `answers` (per call: the tool's output
 * items, or its error message).
 * @type {import('n8n-workflow').INodeType}
 */
const AGENT_TYPE = {
	description: {
		displayName: 'Agent (harness)',
		name: AGENT_TYPE_NAME,
		group: ['transform'],
		version: 1,
		description: 'Calls its AI tools as n8n\'s AI Agent v3 does (test harness)',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	},
	/** @this {import('n8n-workflow').IExecuteFunctions} @param {any} [response] */
	async execute(response) {
		const tools = /** @type {any[]} */ (
			await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)
		);
		if (response?.actionResponses?.length) {
			const answers = response.actionResponses.map((/** @type {any} */ entry) => ({
				tool: entry.action.metadata.toolName,
				items: entry.data.data?.ai_tool?.[0]?.map((/** @type {any} */ item) => item.json) ?? [],
				error: entry.data.error?.message,
			}));
			return [[{ json: { offered: tools.map(offered), answers } }]];
		}
		const calls = JSON.parse(String(this.getNodeParameter('calls', 0, '[]')));
		if (calls.length === 0) return [[{ json: { offered: tools.map(offered), answers: [] } }]];
		return /** @type {any} */ ({
			actions: calls.map((/** @type {{ tool: string, args: object }} */ call, /** @type {number} */ index) => {
				const tool = tools.find((candidate) => candidate.name === call.tool);
				if (!tool) throw new Error(`No tool "${call.tool}"`);
				return {
					actionType: 'ExecutionNodeAction',
					nodeName: tool.metadata.sourceNodeName,
					input: call.args,
					type: NodeConnectionTypes.AiTool,
					id: `call_${index}`,
					metadata: { itemIndex: 0, toolName: call.tool },
				};
			}),
			metadata: {},
		});
	},
};

module.exports = { toolVariant, toolTypeName, offered, AGENT_TYPE, AGENT_TYPE_NAME };
