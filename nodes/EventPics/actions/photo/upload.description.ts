import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { albumLocator, eventLocator } from '../descriptions';
import { optionsField } from './options.description';
import { takenAtFields } from './takenAt.description';

const fields: INodeProperties[] = [
	eventLocator,
	albumLocator,
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Binary Field',
				value: 'binary',
				description: 'Upload files that earlier nodes put in binary fields of the items',
			},
			{
				name: 'URL',
				value: 'url',
				description:
					'Download the file from an http(s) address and upload it (for AI agents and links)',
			},
		],
		default: 'binary',
	},
	{
		displayName: 'Upload All Binary Fields',
		name: 'allBinaryFields',
		type: 'boolean',
		default: false,
		description: 'Whether to upload every binary field of each item, one output item per file',
		displayOptions: { show: { source: ['binary'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'Several fields: separate them with commas, e.g. data, photo2',
		description:
			'Name of the binary field of the input item that holds the photo or video. With several names, each file becomes its own output item.',
		displayOptions: { show: { source: ['binary'], allBinaryFields: [false] } },
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/photos/booth-0001.jpg',
		description: 'The http(s) address of the photo or video to upload',
		displayOptions: { show: { source: ['url'] } },
	},
	...takenAtFields,
	optionsField,
];

/** The parameters of Photo > Upload. */
export const uploadDescription: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['photo'], operation: ['upload'] } },
	fields,
);
