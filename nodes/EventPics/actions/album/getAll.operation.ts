import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eventLocator, paginationFields } from '../descriptions';
import { applyLimit, forEachItem } from '../items';
import { findEvent, openSession } from '../session';

export const description: INodeProperties[] = [
	{ ...eventLocator, displayOptions: { show: { resource: ['album'], operation: ['getAll'] } } },
	...paginationFields('album'),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const session = await openSession(this);
	return await forEachItem(this, async (itemIndex) => {
		const linkId = String(this.getNodeParameter('event', itemIndex, '', { extractValue: true })).trim();
		const event = await findEvent(this, session, linkId, itemIndex);
		return applyLimit(this, itemIndex, event.albums).map((album) => ({
			json: { id: album.id, title: album.title, event: { linkId: event.linkId, title: event.title } },
		}));
	});
}
