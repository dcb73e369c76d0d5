import type { EventSummary } from './events';

/** How many events or albums an error lists before "and N more". */
export const MAX_LISTED = 10;

/** What an empty Album means, in words: the Album list's first entry and the empty field's text. */
export const NO_ALBUM = 'No album (upload into the event itself)';

/** `"Title" (id)`, or `"id"` when the title is unknown or the id itself. */
export function named(title: string | undefined, id: string): string {
	const cleanTitle = (title ?? '').trim();
	return cleanTitle === '' || cleanTitle === id ? `"${id}"` : `"${cleanTitle}" (${id})`;
}

/** `"A" (a), "B" (b) and 3 more`, capped at MAX_LISTED entries. */
export function namedList(entries: Array<{ title: string; id: string }>): string {
	const shown = entries.slice(0, MAX_LISTED).map((entry) => named(entry.title, entry.id));
	const rest = entries.length - shown.length;
	return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/** The events as `"Title" (linkId)`, capped. */
function eventList(events: EventSummary[]): string {
	return namedList(events.map((event) => ({ title: event.title, id: event.linkId })));
}

/**
 * The title of an album id that is not in the chosen event: the title it has in another event of the
 * key, else the title the editor kept when it was picked from a list, else none.
 */
export function albumTitleElsewhere(
	events: EventSummary[],
	albumId: string,
	pickedTitle?: string,
): string | undefined {
	for (const event of events) {
		const album = event.albums.find((candidate) => candidate.id === albumId);
		if (album) return album.title;
	}
	return pickedTitle;
}

/** The message for an album id that is not one of the event's albums. */
export function albumNotInEvent(event: EventSummary, albumId: string, albumTitle?: string): string {
	const albums =
		event.albums.length === 0
			? 'it has no albums'
			: `its albums are ${namedList(event.albums.map((album) => ({ title: album.title, id: album.id })))}`;
	return `The album ${named(albumTitle, albumId)} is not an album of ${named(event.title, event.linkId)}; ${albums}`;
}

/** The message for a link ID that is not one of the key's events. */
export function eventNotOfKey(events: EventSummary[], linkId: string, eventTitle?: string): string {
	const known = events.length === 0 ? 'it has no events' : `its events are ${eventList(events)}`;
	return `The event ${named(eventTitle, linkId)} is not one of this API key's events; ${known}`;
}

/** The title the editor stored with a resource locator value picked from a list. */
export function cachedTitle(locator: unknown): string | undefined {
	if (typeof locator !== 'object' || locator === null) return undefined;
	const title = (locator as { cachedResultName?: unknown }).cachedResultName;
	return typeof title === 'string' && title.trim() !== '' ? title : undefined;
}
