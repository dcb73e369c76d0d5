import type { INodeProperties } from 'n8n-workflow';

import * as upload from './upload.operation';

export const operations = { upload };

export const operationField: INodeProperties = {
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
};
