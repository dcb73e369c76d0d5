import type { INodeProperties } from 'n8n-workflow';

import { eventJson } from '../../helpers/events';
import type { ItemExecute } from '../account';
import { chosenEvent } from '../account';
import { eventFields, operationFields } from '../node.description';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get an event and its albums by link ID',
	action: 'Get event',
};

export const description: INodeProperties[] = operationFields(
	'event',
	'get',
	"Gets one EventPics event with its albums (linkId, title, and each album's id and title). Pass the event's linkId.",
	eventFields,
);

export const executeItem: ItemExecute = async function (itemIndex, account) {
	return [{ json: eventJson(await chosenEvent(this, account, itemIndex)) }];
};
