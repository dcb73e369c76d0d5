import { operationDropdown } from '../descriptions';

import * as upload from './upload.operation';

export const operations = { upload };

export const operationField = operationDropdown(
	'photo',
	[
		{
			name: 'Upload',
			value: 'upload',
			description:
				'Upload a photo or video into an event album, from a binary field of the item or downloaded from a URL',
			action: 'Upload a photo or video',
		},
	],
	'upload',
);
