import type { IDataObject } from 'n8n-workflow';

import type { Album, EventSummary } from './events';

/** An event as the node outputs it (Event > Get and Get Many, the trigger's New Event). */
export function eventToJson(event: EventSummary): IDataObject {
	return {
		linkId: event.linkId,
		title: event.title,
		albumCount: event.albums.length,
		albums: event.albums.map((album) => ({ id: album.id, title: album.title })),
	};
}

/** An album with its event as the node outputs it (Album > Get Many, the trigger's New Album). */
export function albumToJson(album: Album, event: EventSummary): IDataObject {
	return {
		id: album.id,
		title: album.title,
		event: { linkId: event.linkId, title: event.title },
	};
}
