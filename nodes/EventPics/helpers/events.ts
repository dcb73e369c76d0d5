import type { IDataObject } from 'n8n-workflow';

import { INVISIBLE, oneLine } from './text';

/** Events and albums as the service lists them: ids kept as they are, titles cleaned and cut. */
export type Album = { id: string; title: string };
export type EventSummary = { linkId: string; title: string; albums: Album[] };

/** Longest title kept, and longest id taken (an event or album with a longer one is left out). */
const MAX_TITLE = 200;
const MAX_ID = 1024;

/** What an empty Album means, in words: the Album list's first entry and the empty field's text. */
export const NO_ALBUM = 'No album (upload into the event itself)';

const asText = (value: unknown) =>
	typeof value === 'string' && value !== ''
		? value
		: typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: undefined;

/**
 * An id as the node takes it: text or a number, at most MAX_ID characters, with no invisible
 * character (a bidi control would show "ab\u202Edc" as "abcd"); else the entry is left out.
 */
function idOf(...values: unknown[]): string | undefined {
	const id = values.map(asText).find((value) => value !== undefined);
	if (id === undefined || id.length > MAX_ID) return undefined;
	INVISIBLE.lastIndex = 0;
	return INVISIBLE.test(id) ? undefined : id;
}

const titleOf = (value: unknown, id: string) =>
	oneLine(asText(value) ?? '', MAX_TITLE) || oneLine(id, MAX_TITLE);

const listOf = <T>(list: unknown, make: (entry: IDataObject) => T | undefined): T[] =>
	(Array.isArray(list) ? list : [])
		.map((entry) => (typeof entry === 'object' && entry !== null ? make(entry) : undefined))
		.filter((entry) => entry !== undefined);

/** An album as the API documents it: `id`, or `albumId` in one set of its examples. */
function albumOf(album: IDataObject): Album | undefined {
	const id = idOf(album.id, album.albumId);
	return id === undefined ? undefined : { id, title: titleOf(album.title, id) };
}

function eventOf(event: IDataObject): EventSummary | undefined {
	const linkId = idOf(event.linkId);
	if (linkId === undefined) return undefined;
	return { linkId, title: titleOf(event.title, linkId), albums: listOf(event.albums, albumOf) };
}

/** The `events` array of a geteventsandalbums answer, or undefined when the answer has none. */
export function parseEvents(body: unknown): EventSummary[] | undefined {
	const events = (body as IDataObject | null | undefined)?.events;
	return Array.isArray(events) ? listOf(events, eventOf) : undefined;
}

/** An event as the node and the trigger output it. */
export const eventJson = ({ linkId, title, albums }: EventSummary): IDataObject => ({
	linkId,
	title,
	albumCount: albums.length,
	albums: albums.map(({ id, title }) => ({ id, title })),
});

/** An album with its event as the node and the trigger output it. */
export const albumJson = ({ id, title }: Album, event: EventSummary): IDataObject => ({
	id,
	title,
	event: { linkId: event.linkId, title: event.title },
});

/** A dropdown's search: a text longer than any title or id (a megabyte pasted) matches nothing at once. */
export function searchMatcher(filter: string | undefined): (...texts: string[]) => boolean {
	if (!filter) return () => true;
	if (filter.length > MAX_ID) return () => false;
	const needle = filter.toLowerCase();
	return (...texts) => texts.some((text) => text.toLowerCase().includes(needle));
}

/** `"Title" (id)`, or `"id"` when the title is unknown or the id itself. */
export function named(title: string | undefined, id: string): string {
	const cleanTitle = oneLine(title ?? '', MAX_TITLE);
	const shownId = oneLine(id, 100);
	return cleanTitle === '' || cleanTitle === shownId
		? `"${shownId}"`
		: `"${cleanTitle}" (${shownId})`;
}

export const MAX_LISTED = 10;

/** `"A" (a), "B" (b) and 3 more`, at most MAX_LISTED named. */
export function namedList(entries: Array<{ title: string; id: string }>): string {
	const listed = entries.slice(0, MAX_LISTED).map((entry) => named(entry.title, entry.id));
	const rest = entries.length - listed.length;
	return rest > 0 ? `${listed.join(', ')} and ${rest} more` : listed.join(', ');
}

export function eventNotOfKey(events: EventSummary[], linkId: string, eventTitle?: string): string {
	const list = namedList(events.map((event) => ({ title: event.title, id: event.linkId })));
	const known = events.length === 0 ? 'it has no events' : `its events are ${list}`;
	return `The event ${named(eventTitle, linkId)} is not one of this API key's events; ${known}`;
}

export function albumNotInEvent(event: EventSummary, albumId: string, albumTitle?: string): string {
	const albums =
		event.albums.length === 0 ? 'it has no albums' : `its albums are ${namedList(event.albums)}`;
	return `The album ${named(albumTitle, albumId)} is not an album of ${named(event.title, event.linkId)}; ${albums}`;
}

export function cachedTitle(locator: unknown): string | undefined {
	const title = (locator as { cachedResultName?: unknown } | null)?.cachedResultName;
	return (typeof title === 'string' && oneLine(title, MAX_TITLE)) || undefined;
}
