import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { albumToJson } from '../../helpers/eventJson';
import { paginationFields } from '../descriptions';
import { eventFields, operationFields } from '../tool.description';
import { applyLimit, forEachItem } from '../items';
import { chosenEvent, readAccount } from '../account';

export const description: INodeProperties[] = operationFields(
	'album',
	'getAll',
	"Lists the albums of one EventPics event: each album's id and title. Pass the event's linkId.",
	[...eventFields, ...paginationFields],
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const account = await readAccount(this);
	return await forEachItem(this, async (itemIndex) => {
		const event = await chosenEvent(this, account, itemIndex);
		return applyLimit(this, itemIndex, event.albums).map((album) => ({
			json: albumToJson(album, event),
		}));
	});
}
