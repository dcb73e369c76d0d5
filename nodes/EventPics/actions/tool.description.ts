import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { extractFromAICalls, updateDisplayOptions } from 'n8n-workflow';

import { albumLocator, eventLocator } from './descriptions';

/**
 * The AI tool variant ("EventPics Tool", which n8n makes from `usableAsTool`) has some fields of its
 * own. n8n's display option `@tool` is true for a node type whose name ends in "Tool", in the editor
 * and when the workflow runs, so a field shown only there gets its own default in both places.
 */
export const AS_TOOL: IDisplayOptions = { show: { '@tool': [true] } };
export const NOT_AS_TOOL: IDisplayOptions = { hide: { '@tool': [true] } };

/**
 * The argument an AI agent fills a field with: the key of the field's `$fromAI()` when the node runs
 * as its tool variant (the same rule as `@tool`: the node's type ends in "Tool"); none when a user
 * set the field, or when the node is not a tool.
 */
export function agentArgument(ctx: IExecuteFunctions, name: string): string | undefined {
	const node = ctx.getNode();
	if (!node.type.endsWith('Tool')) return undefined;
	const raw: unknown = node.parameters[name];
	const value = typeof raw === 'object' && raw !== null ? (raw as { value?: unknown }).value : raw;
	if (typeof value !== 'string') return undefined;
	try {
		return extractFromAICalls(value)[0]?.key;
	} catch {
		// an expression n8n's own parser cannot read: the field's words apply
		return undefined;
	}
}

/** An expression that an AI agent fills: `key` and `description` are what the model is offered. */
export const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;

/**
 * What the agent is told the tool does and what to pass it, one per operation. n8n adds its own
 * "Tool Description" field only to nodes without a `toolDescription` parameter; its automatic text
 * would be just the action ("Upload a photo or video in EventPics").
 */
export function toolDescription(text: string): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 3 },
		description: 'What the AI agent is told this tool does and what to pass it',
		displayOptions: AS_TOOL,
	};
}

/**
 * A resource locator twice: picked from the list by the user in the node; in the tool given by the
 * agent (By ID, `$fromAI`). A wrong ID gets an error that lists the valid ones, so the agent can
 * correct itself; the user can still pick a fixed event or album in the tool. The tool's copy depends
 * on no other field: the editor empties a dependent field when what it depends on changes, and a
 * user who fixes the event in the tool would lose the Album's `$fromAI()` that way.
 */
function pickedOrGiven(locator: INodeProperties, key: string, said: string): INodeProperties[] {
	const { typeOptions, ...rest } = locator;
	const { loadOptionsDependsOn, ...ownTypeOptions } = typeOptions ?? {};
	void loadOptionsDependsOn;
	return [
		{ ...locator, displayOptions: NOT_AS_TOOL },
		{
			...rest,
			...(Object.keys(ownTypeOptions).length > 0 && { typeOptions: ownTypeOptions }),
			default: { __rl: true, mode: 'id', value: fromAI(key, said) },
			displayOptions: AS_TOOL,
		},
	];
}

export const eventFields = pickedOrGiven(
	eventLocator,
	'linkId',
	'The linkId of the EventPics event, from the tool that lists events',
);

export const albumFields = pickedOrGiven(
	albumLocator,
	'albumId',
	'The id of an album of that event, or empty for none',
);

/**
 * An operation's fields, shown for its resource and operation only: first the text an AI agent reads
 * when the node is its tool, then the fields.
 */
export function operationFields(
	resource: string,
	operation: string,
	toolText: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [
		toolDescription(toolText),
		...fields,
	]);
}
