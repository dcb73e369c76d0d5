import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { extractFromAICalls, updateDisplayOptions } from 'n8n-workflow';

import { NO_ALBUM } from '../helpers/events';

/**
 * Parameters several operations share, and the AI tool variant's ("EventPics Tool"): n8n's display
 * option `@tool` is true for a node type whose name ends in "Tool", so a field shown only there has
 * its own default.
 */
export const AS_TOOL: IDisplayOptions = { show: { '@tool': [true] } };
export const NOT_AS_TOOL: IDisplayOptions = { hide: { '@tool': [true] } };

/** A field an AI agent fills; the marker makes the editor show it "defined automatically by the model". */
export const fromAI = (key: string, description: string, optional = false) =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`${description}\`, 'string'${optional ? ", ''" : ''}) }}`;

/** The `$fromAI()` key a field is filled with when the node runs as its tool variant; none when a user set it. */
export function agentArgument(ctx: IExecuteFunctions, name: string): string | undefined {
	const node = ctx.getNode();
	if (!node.type.endsWith('Tool')) return undefined;
	const raw: unknown = node.parameters[name];
	const value = typeof raw === 'object' && raw !== null ? (raw as { value?: unknown }).value : raw;
	if (typeof value !== 'string') return undefined;
	try {
		return extractFromAICalls(value)[0]?.key;
	} catch {
		return undefined; // an expression n8n's own parser cannot read: the field's words apply
	}
}

export const eventLocator: INodeProperties = {
	displayName: 'Event',
	name: 'event',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The event, chosen from the events of the API key or given by its link ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an event...',
			typeOptions: { searchListMethod: 'searchEvents', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. hx7Kq2' },
	],
};

const albumLocator: INodeProperties = {
	displayName: 'Album',
	name: 'album',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'The album of the chosen event; empty ("No album") uploads into the event itself. Picking another event from the list empties this field.',
	// The editor empties this field when what it depends on changes. On the event's stored title:
	// picking another event empties it, an Event given as an expression has none, so a run keeps it.
	typeOptions: { loadOptionsDependsOn: ['event.cachedResultName'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: NO_ALBUM,
			typeOptions: { searchListMethod: 'searchAlbums', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. booth' },
	],
};

/**
 * A locator twice: picked from the list in the node; given by the agent in the tool (By ID,
 * `$fromAI`), depending on no other field (the editor would empty the Album's `$fromAI()`).
 */
function pickedOrGiven(
	locator: INodeProperties,
	key: string,
	said: string,
	toolText: string,
	optional = false,
): INodeProperties[] {
	const { typeOptions: _dependsOn, ...rest } = locator;
	void _dependsOn;
	return [
		{ ...locator, displayOptions: NOT_AS_TOOL },
		{
			...rest,
			description: toolText,
			default: { __rl: true, mode: 'id', value: fromAI(key, said, optional) },
			displayOptions: AS_TOOL,
		},
	];
}

export const eventFields = pickedOrGiven(
	eventLocator,
	'linkId',
	'The linkId of the EventPics event, from the tool that lists events',
	'The event; the AI agent gives its link ID unless you pick one',
);

export const albumFields = pickedOrGiven(
	albumLocator,
	'albumId',
	'The id of an album of that event, or empty for none',
	'The album of the event, or none; the AI agent gives its ID unless you pick one',
	true,
);

export const paginationFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/**
 * An operation's fields for its resource and operation, after what an AI agent reads when the node is
 * its tool (n8n adds its own "Tool Description" only to nodes without one).
 */
export function operationFields(
	resource: string,
	operation: string,
	toolText: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: toolText,
			required: true,
			typeOptions: { rows: 3 },
			description: 'What the AI agent is told this tool does and what to pass it',
			displayOptions: AS_TOOL,
		},
		...fields,
	]);
}
