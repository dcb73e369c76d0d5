import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

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

/** The node's parameters: Resource, each resource's Operation, then each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	resourceField,
	...Object.values(resources).map((resource) => resource.operationField),
	...Object.values(resources).flatMap((resource) =>
		Object.values(resource.operations).flatMap((operation) => operation.description),
	),
];
