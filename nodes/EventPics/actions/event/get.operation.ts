import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { eventFields, toolDescription } from '../tool.description';
import { forEachItem } from '../items';
import { findEvent, readAccount, readLocator } from '../account';
import { eventToJson } from '../../helpers/eventJson';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['get'] } },
	[
		toolDescription(
			"Gets one EventPics event with its albums (linkId, title, and each album's id and title). Pass the event's linkId.",
		),
		...eventFields,
	],
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const account = await readAccount(this);
	return await forEachItem(this, async (itemIndex) => {
		const chosen = readLocator(this, 'event', itemIndex);
		const event = await findEvent(this, account, chosen.value, itemIndex, chosen.title);
		return [{ json: eventToJson(event) }];
	});
}
