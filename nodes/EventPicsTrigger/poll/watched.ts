import type { IDataObject } from 'n8n-workflow';

import { albumToJson, eventToJson } from '../../EventPics/helpers/eventJson';
import type { EventSummary } from '../../EventPics/helpers/events';

/** What the trigger watches: the events of the key, or the albums of all events or of one. */
export type Watch = { on: 'newEvent' } | { on: 'newAlbum'; linkId?: string };

/** One event or album the trigger can report: its identity and the item it becomes. */
export interface Watched {
	/** Identity across polls: the event's link ID; the album's id within its event's link ID. */
	key: string;
	json: IDataObject;
}

/**
 * The watched events or albums in EventPics' list order (for albums: event by event, each
 * event's albums in order). The caller has checked that a watched event is among `events`.
 */
export function watchedItems(events: EventSummary[], watch: Watch): Watched[] {
	if (watch.on === 'newEvent') {
		return events.map((event) => ({ key: `event\u0000${event.linkId}`, json: eventToJson(event) }));
	}
	const chosen =
		watch.linkId === undefined ? events : events.filter((event) => event.linkId === watch.linkId);
	return chosen.flatMap((event) =>
		event.albums.map((album) => ({
			key: `album\u0000${event.linkId}\u0000${album.id}`,
			json: albumToJson(album, event),
		})),
	);
}

/**
 * The newest watched item, for a manual "Fetch Test Event". The API gives no creation date, so
 * "newest" is the last in EventPics' list: where the trigger sees new events and albums appear.
 */
export function newestItem(items: Watched[]): Watched | undefined {
	return items.at(-1);
}
