import type { INodeProperties } from 'n8n-workflow';

import { eventJson } from '../../helpers/events';
import type { ItemExecute } from '../account';
import { operationFields, paginationFields } from '../node.description';
import { applyLimit } from '../options';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List the events of the API key with their albums',
	action: 'Get many events',
};

export const description: INodeProperties[] = operationFields(
	'event',
	'getAll',
	"Lists the user's EventPics events with their albums: each event's linkId and title, each album's id and title. Takes no input; use it to find the linkId and album id that the other EventPics tools need.",
	paginationFields,
);

export const executeItem: ItemExecute = async function (itemIndex, account) {
	return applyLimit(this, itemIndex, await account.events()).map((event) => ({
		json: eventJson(event),
	}));
};
