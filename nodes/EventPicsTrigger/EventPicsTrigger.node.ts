import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventLocator } from '../EventPics/actions/node.description';
import { eventPicsApiTest } from '../EventPics/methods/credentialTest';
import { searchEvents } from '../EventPics/methods/listSearch';
import { pollEventPics } from './poll';

export class EventPicsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EventPics Trigger',
		name: 'eventPicsTrigger',
		icon: { light: 'file:eventpicsTrigger.svg', dark: 'file:eventpicsTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["triggerOn"] === "newAlbum" ? "New album" : "New event" }}',
		description: 'Starts the workflow when a new event or album appears in EventPics',
		defaults: { name: 'EventPics Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'eventPicsApi', required: true, testedBy: 'eventPicsApiTest' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'triggerOn',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'New Album', value: 'newAlbum', description: 'An album was added to an event' },
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
					'The first activation only records the events and albums that exist; from then on each new one starts the workflow once (at most 100 per poll, the rest at the next polls). "Fetch Test Event" returns the newest (the last in EventPics\' list).',
				name: 'notice',
				type: 'notice',
				default: '',
			},
		],
	};

	methods = {
		listSearch: { searchEvents },
		credentialTest: { eventPicsApiTest },
	};

	poll = pollEventPics;
}
