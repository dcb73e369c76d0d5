import type { IDataObject } from 'n8n-workflow';

import type { EventSummary } from '../../helpers/events';

export function eventToJson(event: EventSummary): IDataObject {
	return {
		linkId: event.linkId,
		title: event.title,
		albumCount: event.albums.length,
		albums: event.albums.map((album) => ({ id: album.id, title: album.title })),
	};
}
