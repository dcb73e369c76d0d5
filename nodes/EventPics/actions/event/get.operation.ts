import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eventFields, operationFields } from '../tool.description';
import { forEachItem } from '../items';
import { chosenEvent, readAccount } from '../account';
import { eventToJson } from '../../helpers/eventJson';

export const description: INodeProperties[] = operationFields(
	'event',
	'get',
	"Gets one EventPics event with its albums (linkId, title, and each album's id and title). Pass the event's linkId.",
	eventFields,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const account = await readAccount(this);
	return await forEachItem(this, async (itemIndex) => [
		{ json: eventToJson(await chosenEvent(this, account, itemIndex)) },
	]);
}
