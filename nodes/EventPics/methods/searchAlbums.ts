import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { searchMatcher } from '../helpers/events';
import { eventNotOfKey, NO_ALBUM } from '../helpers/naming';
import { loadEvents } from './loadEvents';

/** A list result whose value empties the Album field (a search result, not an option of the node). */
const emptyingEntry = (label: string): INodeListSearchItems => ({ name: label, value: '' });

/** The entry that empties the Album field: EventPics accepts an upload without an album. */
const NO_ALBUM_ENTRY = emptyingEntry(NO_ALBUM);

/** The entry shown for an event without albums: choosing it leaves the Album field empty. */
const EVENT_HAS_NO_ALBUMS_ENTRY = emptyingEntry('This event has no albums: leave Album empty');

/**
 * The albums of the event chosen in the same node's "Event" field, after an entry that empties the
 * field. The Album field lists "event.value" in loadOptionsDependsOn, so the editor clears a picked
 * album when the event changes; a stale album is refused on run with both titles.
 */
export async function searchAlbums(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const linkId = String(this.getCurrentNodeParameter('event', { extractValue: true }) ?? '').trim();
	if (linkId === '') {
		throw new NodeOperationError(
			this.getNode(),
			'Choose the event first: the albums are those of the event',
		);
	}
	const events = await loadEvents(this);
	const event = events.find((candidate) => candidate.linkId === linkId);
	if (!event) {
		throw new NodeOperationError(this.getNode(), eventNotOfKey(events, linkId));
	}
	if (event.albums.length === 0) return { results: [EVENT_HAS_NO_ALBUMS_ENTRY] };
	const matches = searchMatcher(filter);
	const albums = event.albums
		.filter((album) => matches(album.title, album.id))
		.map((album) => ({ name: album.title, value: album.id }));
	return { results: filter ? albums : [NO_ALBUM_ENTRY, ...albums] };
}
