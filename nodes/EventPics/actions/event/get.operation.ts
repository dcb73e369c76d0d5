import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eventLocator } from '../descriptions';
import { forEachItem } from '../items';
import { findEvent, openSession, readLocator } from '../session';
import { eventToJson } from './eventToJson';

export const description: INodeProperties[] = [
	{ ...eventLocator, displayOptions: { show: { resource: ['event'], operation: ['get'] } } },
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const session = await openSession(this);
	return await forEachItem(this, async (itemIndex) => {
		const chosen = readLocator(this, 'event', itemIndex);
		const event = await findEvent(this, session, chosen.value, itemIndex, chosen.title);
		return [{ json: eventToJson(event) }];
	});
}
