import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties, router, subtitle } from './actions/router';
import { eventPicsApiTest } from './methods/credentialTest';
import { searchAlbums, searchEvents } from './methods/listSearch';

export class EventPics implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EventPics',
		name: 'eventPics',
		icon: { light: 'file:eventpics.svg', dark: 'file:eventpics.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle,
		description: 'Upload photos and videos into EventPics event albums, and list events and albums',
		defaults: { name: 'EventPics' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// tested by the node's own method: n8n's declarative test has no bounds on the answer's body
		credentials: [{ name: 'eventPicsApi', required: true, testedBy: 'eventPicsApiTest' }],
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchEvents, searchAlbums },
		credentialTest: { eventPicsApiTest },
	};

	execute = router;
}
