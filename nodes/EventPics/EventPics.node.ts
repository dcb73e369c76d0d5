import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationFields, resourceField } from './actions/resources';
import { operations, router } from './actions/router';
import { searchAlbums, searchEvents } from './methods';

export class EventPics implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EventPics',
		name: 'eventPics',
		icon: { light: 'file:eventpics.svg', dark: 'file:eventpics.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Upload photos and videos into EventPics event albums, and list events and albums',
		defaults: { name: 'EventPics' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'eventPicsApi', required: true }],
		properties: [
			resourceField,
			...operationFields,
			...Object.values(operations).flatMap((byOperation) =>
				Object.values(byOperation).flatMap((operation) => operation.description),
			),
		],
	};

	methods = {
		listSearch: { searchEvents, searchAlbums },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
