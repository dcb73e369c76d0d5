import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../helpers/errors';
import type { EventSummary } from '../helpers/events';
import { eventNotOfKey, NO_ALBUM, searchMatcher } from '../helpers/events';
import { DEFAULT_POLICY, listEvents, readCredential } from '../transport/request';

/** A dropdown should answer fast: fewer and shorter retries than an execution. */
const DROPDOWN_POLICY = {
	...DEFAULT_POLICY,
	maxAttempts: 3,
	maxTotalWaitMs: 10_000,
	timeoutMs: 20_000,
};

/** The key's events for a dropdown, with errors the editor shows (a 401 with its code, so n8n offers the credential). */
async function loadEvents(ctx: ILoadOptionsFunctions): Promise<EventSummary[]> {
	const { baseUrl, apiKey } = await readCredential(ctx);
	try {
		return await listEvents(ctx, baseUrl, DROPDOWN_POLICY);
	} catch (error) {
		// the editor writes the HTTP code before the message ("401 - ..."): not twice
		const voice = { summary: { unauthorized: 'EventPics refused the API key of the credential' } };
		throw toNodeError(ctx.getNode(), error, { secret: apiKey, voice });
	}
}

export async function searchEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const matches = searchMatcher(filter);
	const events = (await loadEvents(this)).filter((event) => matches(event.title, event.linkId));
	return { results: events.map((event) => ({ name: event.title, value: event.linkId })) };
}

/** A list entry that empties the Album field (a search result, not an option of the node). */
const emptying = (name: string) => ({ name, value: '' });

/**
 * The albums of the event chosen in the same node, after an entry that empties the field (EventPics
 * takes an upload without album); for an event without albums, one entry that says so.
 */
export async function searchAlbums(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const linkId = String(this.getCurrentNodeParameter('event', { extractValue: true }) ?? '').trim();
	const fail = (message: string) => new NodeOperationError(this.getNode(), message);
	if (linkId === '') throw fail('Choose the event first: the albums are those of the event');
	const events = await loadEvents(this);
	const event = events.find((candidate) => candidate.linkId === linkId);
	if (!event) throw fail(eventNotOfKey(events, linkId));
	if (event.albums.length === 0)
		return { results: [emptying('This event has no albums: leave Album empty')] };
	const matches = searchMatcher(filter);
	const albums = event.albums
		.filter((album) => matches(album.title, album.id))
		.map((album) => ({ name: album.title, value: album.id }));
	return { results: filter ? albums : [emptying(NO_ALBUM), ...albums] };
}
