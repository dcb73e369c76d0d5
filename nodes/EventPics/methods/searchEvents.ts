import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matchesFilter } from '../helpers/events';
import { loadEvents } from './loadEvents';

export async function searchEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const events = await loadEvents(this);
	return {
		results: events
			.filter((event) => matchesFilter(filter, event.title, event.linkId))
			.map((event) => ({ name: event.title, value: event.linkId })),
	};
}
