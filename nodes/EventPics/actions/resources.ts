import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import * as album from './album/Album.resource';
import * as event from './event/Event.resource';
import * as photo from './photo/Photo.resource';

export interface Operation {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
}

interface Resource {
	operationField: INodeProperties;
	operations: Record<string, Operation>;
}

/** The resources by their value in the Resource dropdown, in the order of the node's parameters. */
export const resources: Record<string, Resource> = { event, album, photo };

const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Album', value: 'album' },
		{ name: 'Event', value: 'event' },
		{ name: 'Photo', value: 'photo' },
	],
	default: 'photo',
};

/** The resources in the order the subtitle expression lists them (the built description stays byte for byte). */
const SUBTITLE_ORDER = ['photo', 'event', 'album'];

/** An operation in the canvas subtitle: its dropdown name with its resource ("Get many events"). */
function subtitleText(resource: string, operation: INodePropertyOptions): string {
	const name = operation.name.toLowerCase();
	const many = operation.value === 'getAll' || operation.value === 'keepNew';
	return `${name[0].toUpperCase()}${name.slice(1)} ${resource}${many ? 's' : ''}`;
}

/**
 * The canvas subtitle, derived from the Operation dropdowns: the action in words ("Upload photo"),
 * "Custom API call" for n8n's own entry.
 */
export const subtitle = `={{ ({ ${SUBTITLE_ORDER.flatMap((resource) =>
	((resources[resource].operationField.options ?? []) as INodePropertyOptions[]).map(
		(operation) =>
			`"${resource}:${String(operation.value)}": "${subtitleText(resource, operation)}"`,
	),
).join(', ')} })[$parameter["resource"] + ":" + $parameter["operation"]] || "Custom API call" }}`;

/** The node's parameters: Resource, each resource's Operation, then each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	resourceField,
	...Object.values(resources).map((resource) => resource.operationField),
	...Object.values(resources).flatMap((resource) =>
		Object.values(resource.operations).flatMap((operation) => operation.description),
	),
];
