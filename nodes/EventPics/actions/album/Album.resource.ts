import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export const operations = { getAll };

export const operationField: INodeProperties = {
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
};
