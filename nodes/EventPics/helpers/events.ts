import type { IDataObject } from 'n8n-workflow';

import { INVISIBLE, oneLine } from './text';

/**
 * Longest title kept. Titles come from the service and are shown in outputs, dropdowns, errors and
 * an AI agent's tool answers, for every item: cleaned and cut here, where the answer is read, once.
 */
export const MAX_TITLE = 200;

/** Longest id taken: an event or album with a longer id (no real one is) is left out of the list. */
const MAX_ID = 1024;

export interface Album {
	id: string;
	title: string;
}

export interface EventSummary {
	linkId: string;
	title: string;
	albums: Album[];
}

/**
 * An id as the node takes it: text or a number, at most MAX_ID characters, with no invisible
 * character (a bidi control would show "ab\u202Edc" as "abcd" in outputs); else the event or album
 * is left out of the list. Ids are sent back to the service as they are, so they are never changed.
 */
function idOf(...values: unknown[]): string | undefined {
	const id = values.map(asText).find((value) => value !== undefined);
	if (id === undefined || id.length > MAX_ID) return undefined;
	INVISIBLE.lastIndex = 0;
	return INVISIBLE.test(id) ? undefined : id;
}

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** A title as the node shows it (see oneLine), else the id (cleaned the same way). */
function titleOf(value: unknown, id: string): string {
	const raw = asText(value);
	return (raw === undefined ? '' : oneLine(raw, MAX_TITLE)) || oneLine(id, MAX_TITLE);
}

/** Reads an album as the API documents it: `id`, or `albumId` in one set of its examples. */
function normalizeAlbum(raw: unknown): Album | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const album = raw as IDataObject;
	const id = idOf(album.id, album.albumId);
	if (id === undefined) return undefined;
	return { id, title: titleOf(album.title, id) };
}

function normalizeEvent(raw: unknown): EventSummary | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const event = raw as IDataObject;
	const linkId = idOf(event.linkId);
	if (linkId === undefined) return undefined;
	const albums = Array.isArray(event.albums)
		? event.albums.map(normalizeAlbum).filter((a): a is Album => a !== undefined)
		: [];
	return { linkId, title: titleOf(event.title, linkId), albums };
}

/** The `events` array of a geteventsandalbums answer, or undefined when the answer has none. */
export function parseEventsResponse(body: unknown): EventSummary[] | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const events = (body as IDataObject).events;
	if (!Array.isArray(events)) return undefined;
	return events.map(normalizeEvent).filter((e): e is EventSummary => e !== undefined);
}

/**
 * The test of a dropdown's search text, built once per search: the text is lower-cased once, and a
 * text longer than any title or id (a megabyte pasted into the search box) matches nothing at once,
 * so a search costs the same whatever was typed.
 */
export function searchMatcher(filter: string | undefined): (...texts: string[]) => boolean {
	if (!filter) return () => true;
	if (filter.length > MAX_ID) return () => false;
	const needle = filter.toLowerCase();
	return (...texts) => texts.some((text) => text.toLowerCase().includes(needle));
}
