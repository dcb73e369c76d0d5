import { operationDropdown } from '../descriptions';

import * as getAll from './getAll.operation';

export const operations = { getAll };

export const operationField = operationDropdown(
	'album',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the albums of an event',
			action: 'Get many albums',
		},
	],
	'getAll',
);
