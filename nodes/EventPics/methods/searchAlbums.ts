import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { matchesFilter } from '../helpers/events';
import { loadEvents } from './loadEvents';

/** The albums of the event chosen in the same node's "Event" field. */
export async function searchAlbums(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const linkId = String(this.getCurrentNodeParameter('event', { extractValue: true }) ?? '').trim();
	if (linkId === '') {
		throw new NodeOperationError(this.getNode(), 'Choose the event first: the albums are those of the event');
	}
	const event = (await loadEvents(this)).find((candidate) => candidate.linkId === linkId);
	if (!event) {
		throw new NodeOperationError(this.getNode(), `The event "${linkId}" is not one of this API key's events`);
	}
	return {
		results: event.albums
			.filter((album) => matchesFilter(filter, album.title, album.id))
			.map((album) => ({ name: album.title, value: album.id })),
	};
}
