import type { INodeProperties } from 'n8n-workflow';

import { albumLocator, eventLocator } from '../descriptions';

const show = { resource: ['photo'], operation: ['upload'] };

export const uploadDescription: INodeProperties[] = [
	{ ...eventLocator, displayOptions: { show } },
	{ ...albumLocator, displayOptions: { show } },
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to upload',
		description: 'Name of the binary field of the input item that holds the photo or video',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. booth-0001.jpg',
				description:
					'Name to upload the file under, instead of the binary\'s own. An extension is added from the file\'s MIME type when the name has none.',
			},
			{
				displayName: 'Max Attempts',
				name: 'maxAttempts',
				type: 'number',
				default: 5,
				typeOptions: { minValue: 1, maxValue: 20 },
				description:
					'How many times one upload is tried when EventPics answers 429 or 5xx or the connection breaks',
			},
			{
				displayName: 'Max Total Wait (Seconds)',
				name: 'maxTotalWaitSeconds',
				type: 'number',
				default: 120,
				typeOptions: { minValue: 0 },
				description: 'Longest time one upload waits between its tries, summed',
			},
			{
				displayName: 'Send Unknown Types as Octet-Stream',
				name: 'allowUnknownType',
				type: 'boolean',
				default: false,
				description:
					'Whether to upload a file whose extension has no known media type as application/octet-stream instead of refusing it',
			},
			{
				displayName: 'Taken At',
				name: 'takenAt',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2026-06-20T18:30:00+02:00 or {{ $json.timestamp }}',
				description:
					'When the photo was taken: an ISO 8601 date (without an offset it is read in the workflow\'s time zone), epoch milliseconds or seconds, or an n8n date. Sent as Unix milliseconds.',
			},
		],
	},
];
