import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eventJson } from '../../helpers/events';
import type { Account } from '../account';
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

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
	account: Account,
): Promise<INodeExecutionData[]> {
	return [{ json: eventJson(await chosenEvent(this, account, itemIndex)) }];
}
