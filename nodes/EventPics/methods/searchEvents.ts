import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchMatcher } from '../helpers/events';
import { loadEvents } from './loadEvents';

export async function searchEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const events = await loadEvents(this);
	const matches = searchMatcher(filter);
	return {
		results: events
			.filter((event) => matches(event.title, event.linkId))
			.map((event) => ({ name: event.title, value: event.linkId })),
	};
}
