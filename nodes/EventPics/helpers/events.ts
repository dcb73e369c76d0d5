import type { IDataObject } from 'n8n-workflow';

export interface Album {
	id: string;
	title: string;
}

export interface EventSummary {
	linkId: string;
	title: string;
	albums: Album[];
}

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** Reads an album as the API documents it: `id`, or `albumId` in one set of its examples. */
function normalizeAlbum(raw: unknown): Album | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const album = raw as IDataObject;
	const id = asText(album.id) ?? asText(album.albumId);
	if (id === undefined) return undefined;
	return { id, title: asText(album.title) ?? id };
}

function normalizeEvent(raw: unknown): EventSummary | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const event = raw as IDataObject;
	const linkId = asText(event.linkId);
	if (linkId === undefined) return undefined;
	const albums = Array.isArray(event.albums)
		? event.albums.map(normalizeAlbum).filter((a): a is Album => a !== undefined)
		: [];
	return { linkId, title: asText(event.title) ?? linkId, albums };
}

/** The `events` array of a geteventsandalbums answer, or undefined when the answer has none. */
export function parseEventsResponse(body: unknown): EventSummary[] | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const events = (body as IDataObject).events;
	if (!Array.isArray(events)) return undefined;
	return events.map(normalizeEvent).filter((e): e is EventSummary => e !== undefined);
}

export function matchesFilter(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}
