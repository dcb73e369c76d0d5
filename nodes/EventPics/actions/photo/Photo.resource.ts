import { operationDropdown } from '../descriptions';

import * as keepNew from './keepNew.operation';
import * as upload from './upload.operation';

export const operations = { upload, keepNew };

export const operationField = operationDropdown(
	'photo',
	[
		{
			name: 'Keep New',
			value: 'keepNew',
			description:
				'Keep only the items whose file this workflow has not uploaded yet, before downloading or reading it',
			action: 'Keep new photos',
		},
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
