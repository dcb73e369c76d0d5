import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eventLocator, paginationFields } from '../descriptions';
import { applyLimit, forEachItem } from '../items';
import { findEvent, openSession, readLocator } from '../session';

export const description: INodeProperties[] = [
	{ ...eventLocator, displayOptions: { show: { resource: ['album'], operation: ['getAll'] } } },
	...paginationFields('album'),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const session = await openSession(this);
	return await forEachItem(this, async (itemIndex) => {
		const chosen = readLocator(this, 'event', itemIndex);
		const event = await findEvent(this, session, chosen.value, itemIndex, chosen.title);
		return applyLimit(this, itemIndex, event.albums).map((album) => ({
			json: {
				id: album.id,
				title: album.title,
				event: { linkId: event.linkId, title: event.title },
			},
		}));
	});
}
