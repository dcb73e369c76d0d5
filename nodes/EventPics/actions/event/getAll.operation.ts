import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { paginationFields } from '../descriptions';
import { operationFields } from '../tool.description';
import { applyLimit, forEachItem } from '../items';
import { readAccount } from '../account';
import { eventToJson } from '../../helpers/eventJson';

export const description: INodeProperties[] = operationFields(
	'event',
	'getAll',
	"Lists the user's EventPics events with their albums: each event's linkId and title, each album's id and title. Takes no input; use it to find the linkId and album id that the other EventPics tools need.",
	paginationFields,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const account = await readAccount(this);
	return await forEachItem(this, async (itemIndex) => {
		const events = applyLimit(this, itemIndex, await account.events(itemIndex));
		return events.map((event) => ({ json: eventToJson(event) }));
	});
}
