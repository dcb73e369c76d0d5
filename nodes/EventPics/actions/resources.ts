import type { INodeProperties } from 'n8n-workflow';

export const resourceField: INodeProperties = {
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

export const operationFields: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['event'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an event and its albums by link ID',
				action: 'Get an event',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the events of the API key with their albums',
				action: 'Get many events',
			},
		],
		default: 'getAll',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['album'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the albums of an event',
				action: 'Get many albums',
			},
		],
		default: 'getAll',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['photo'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				description:
					'Upload a photo or video into an event album, from a binary field of the item or downloaded from a URL',
				action: 'Upload a photo or video',
			},
		],
		default: 'upload',
	},
];
