import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { albumToJson } from '../../helpers/eventJson';
import { paginationFields } from '../descriptions';
import { eventFields, toolDescription } from '../tool.description';
import { applyLimit, forEachItem } from '../items';
import { findEvent, readAccount, readLocator } from '../account';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['album'], operation: ['getAll'] } },
	[
		toolDescription(
			"Lists the albums of one EventPics event: each album's id and title. Pass the event's linkId.",
		),
		...eventFields,
		...paginationFields,
	],
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const account = await readAccount(this);
	return await forEachItem(this, async (itemIndex) => {
		const chosen = readLocator(this, 'event', itemIndex);
		const event = await findEvent(this, account, chosen.value, itemIndex, chosen.title);
		return applyLimit(this, itemIndex, event.albums).map((album) => ({
			json: albumToJson(album, event),
		}));
	});
}
