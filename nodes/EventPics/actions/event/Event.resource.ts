import { operationDropdown } from '../descriptions';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { getAll, get };

export const operationField = operationDropdown(
	'event',
	[
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
	'getAll',
);
