import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { NO_ALBUM } from '../helpers/naming';

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
		{
			displayName: 'By Link ID',
			name: 'id',
			type: 'string',
			// EventPics link IDs are short codes like the end of an event's share link
			placeholder: 'e.g. hx7Kq2',
		},
	],
};

export const albumLocator: INodeProperties = {
	displayName: 'Album',
	name: 'album',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'The album of the chosen event; empty ("No album") uploads into the event itself. Picking another event from the list empties this field.',
	// The editor empties this field whenever what it depends on resolves differently, even when it
	// holds an expression. On the event's title as the list stored it (not its value): picking
	// another event empties a picked album, but an Event that is an expression (on the item, or
	// `$fromAI()`) has no stored title, so a run that resolves it anew keeps the Album's expression.
	// The list itself follows the event either way (the editor asks again when any field changes).
	typeOptions: { loadOptionsDependsOn: ['event.cachedResultName'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			// an empty Album uploads into the event itself, so the empty field says so (also after
			// picking the list's "No album" entry, which empties it)
			placeholder: NO_ALBUM,
			typeOptions: { searchListMethod: 'searchAlbums', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. booth',
		},
	],
};

/** Return All and Limit of a Get Many operation (its displayOptions are added by the operation). */
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

/** The Operation dropdown of one resource, shown when that resource is chosen. */
export function operationDropdown(
	resource: string,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}
