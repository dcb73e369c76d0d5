import type { INodeProperties } from 'n8n-workflow';

import { albumJson } from '../../helpers/events';
import type { ItemExecute } from '../account';
import { chosenEvent } from '../account';
import { eventFields, operationFields, paginationFields } from '../node.description';
import { applyLimit } from '../options';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List the albums of an event',
	action: 'Get many albums',
};

export const description: INodeProperties[] = operationFields(
	'album',
	'getAll',
	"Lists the albums of one EventPics event: each album's id and title. Pass the event's linkId.",
	[...eventFields, ...paginationFields],
);

export const executeItem: ItemExecute = async function (itemIndex, account) {
	const event = await chosenEvent(this, account, itemIndex);
	return applyLimit(this, itemIndex, event.albums).map((album) => ({
		json: albumJson(album, event),
	}));
};
