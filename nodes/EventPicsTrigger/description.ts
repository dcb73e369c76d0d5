import type { INodeProperties } from 'n8n-workflow';

import { eventLocator } from '../EventPics/actions/descriptions';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Trigger On',
		name: 'triggerOn',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'New Album',
				value: 'newAlbum',
				description: 'An album was added to an event',
			},
			{
				name: 'New Event',
				value: 'newEvent',
				description: 'An event was added to the account of the API key',
			},
		],
		default: 'newEvent',
	},
	{
		displayName: 'Albums Of',
		name: 'albumsOf',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { triggerOn: ['newAlbum'] } },
		options: [
			{ name: 'All Events', value: 'all', description: 'A new album in any event' },
			{ name: 'One Event', value: 'one', description: 'A new album in the event chosen below' },
		],
		default: 'all',
	},
	{
		...eventLocator,
		description: 'The event whose new albums start the workflow',
		displayOptions: { show: { triggerOn: ['newAlbum'], albumsOf: ['one'] } },
	},
	{
		displayName:
			'The first activation only records the events and albums that exist; from then on each new one starts the workflow once. "Fetch Test Event" returns the newest (the last in EventPics\' list).',
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
