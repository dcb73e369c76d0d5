import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventPicsApiTest, searchEvents } from '../EventPics/methods';
import { triggerProperties } from './description';
import { pollEventPics } from './poll/poll';

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
		// the same credential test as the EventPics node (methods/credentialTest.ts)
		credentials: [{ name: 'eventPicsApi', required: true, testedBy: 'eventPicsApiTest' }],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchEvents },
		credentialTest: { eventPicsApiTest },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEventPics.call(this);
	}
}
