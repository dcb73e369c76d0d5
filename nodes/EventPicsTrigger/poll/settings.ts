import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cachedTitle } from '../../EventPics/helpers/naming';
import type { Watch } from './watched';

/** What the trigger watches, read from its parameters, and the title of a picked event. */
export function readWatch(ctx: IPollFunctions): { watch: Watch; eventTitle?: string } {
	const on = ctx.getNodeParameter('triggerOn', 'newEvent') as string;
	if (on === 'newEvent') return { watch: { on } };
	if (on !== 'newAlbum') {
		throw new NodeOperationError(
			ctx.getNode(),
			`"Trigger On" is "${on}", which is not one of its choices`,
			{
				description: 'Choose "New Event" or "New Album" in "Trigger On".',
			},
		);
	}
	if (ctx.getNodeParameter('albumsOf', 'all') !== 'one') return { watch: { on } };
	const linkId = String(ctx.getNodeParameter('event', '', { extractValue: true }) ?? '').trim();
	if (linkId === '') {
		throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
			description:
				'Choose the event whose new albums start the workflow in the "Event" field, or set "Albums Of" to "All Events".',
		});
	}
	return { watch: { on, linkId }, eventTitle: cachedTitle(ctx.getNodeParameter('event', '')) };
}
