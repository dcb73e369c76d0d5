import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Voice } from '../EventPics/helpers/errors';
import { toNodeError } from '../EventPics/helpers/errors';
import type { EventSummary } from '../EventPics/helpers/events';
import {
	albumJson,
	cachedTitle,
	eventJson,
	eventNotOfKey,
	named,
} from '../EventPics/helpers/events';
import type { Policy } from '../EventPics/transport/request';
import { DEFAULT_POLICY, listEvents, readCredential } from '../EventPics/transport/request';

type Watch = { on: 'newEvent' | 'newAlbum'; linkId?: string };

/** Items remembered at most (11 characters each: about 110 KB of static data), and reported per poll at most. */
export const MAX_REMEMBERED = 10_000;
export const MAX_PER_POLL = 100;
/** Characters of a hash: 66 bits of SHA-256; a clash among 10,000 items is about 1 in 10^12. */
const KEY_CHARS = 11;
/** The static data field; a version suffix lets a later shape start over instead of misreading. */
const FIELD = 'eventPicsTriggerV2';

const hashKey = (text: string) =>
	createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, KEY_CHARS);

/** The watched items in EventPics' list order, each with its identity across polls and the item it becomes. */
function watchedItems(events: EventSummary[], watch: Watch) {
	if (watch.on === 'newEvent')
		return events.map((event) => ({ key: `event\u0000${event.linkId}`, json: eventJson(event) }));
	return events
		.filter((event) => watch.linkId === undefined || event.linkId === watch.linkId)
		.flatMap((event) =>
			event.albums.map((album) => ({
				key: `album\u0000${event.linkId}\u0000${album.id}`,
				json: albumJson(album, event),
			})),
		);
}

/**
 * Which items are new, and what to remember: every item seen, the oldest forgotten past MAX_REMEMBERED
 * (an item missing from one answer is not new when it returns); MAX_PER_POLL reported, the rest later.
 * Nothing is new at a watch's first poll, or when none of at least two remembered items is left among
 * at least two listed (another account or server: recorded instead of a burst).
 */
export function comparePoll(
	memory: IDataObject | undefined,
	watch: string,
	items: Array<{ key: string; json: IDataObject }>,
) {
	const byHash = new Map<string, IDataObject>();
	for (const item of items.slice(-MAX_REMEMBERED))
		if (!byHash.has(hashKey(item.key))) byHash.set(hashKey(item.key), item.json);
	const valid =
		memory?.watch === watch &&
		typeof memory.seen === 'string' &&
		memory.seen.length % KEY_CHARS === 0 &&
		/^[\w-]*$/.test(memory.seen);
	const seen = valid ? (memory.seen as string) : '';
	const known = new Set<string>();
	for (let at = 0; at < seen.length; at += KEY_CHARS) known.add(seen.slice(at, at + KEY_CHARS));
	const fresh = [...byHash].filter(([hash]) => !known.has(hash));
	const replaced = fresh.length === byHash.size && known.size >= 2 && byHash.size >= 2;
	const reported = !valid || replaced ? [] : fresh.slice(0, MAX_PER_POLL);
	const added = !valid || replaced ? [...byHash.keys()] : reported.map(([hash]) => hash);
	const next = (seen + added.join('')).slice(-MAX_REMEMBERED * KEY_CHARS);
	return { fresh: reported.map(([, json]) => json), next: { watch, seen: next } };
}

/** A poll asks once, and tries again only briefly within the time n8n gives it: the next poll comes anyway. */
function pollPolicy(ctx: IPollFunctions): Policy {
	const budget = ctx.getPollBudgetMs?.() ?? Infinity;
	const maxTotalWaitMs = budget > 0 ? Math.min(15_000, budget / 4) : 15_000;
	return {
		...DEFAULT_POLICY,
		maxAttempts: 3,
		baseDelayMs: 1_000,
		maxDelayMs: 10_000,
		maxTotalWaitMs,
		timeoutMs:
			budget > 0 ? Math.max(1_000, Math.min(30_000, (budget - maxTotalWaitMs) / 3)) : 30_000,
	};
}

/** The trigger's words where a failed poll needs other advice: it asks again at its next poll. */
const VOICE: Voice = {
	advice: {
		unauthorized:
			'Copy the key again from the EventPics app (open the event, then the API key management) into the EventPics credential.',
		rateLimited: 'The trigger asks again at its next poll; if this repeats, poll less often.',
		serverError:
			'The trigger asks again at its next poll; if it persists, contact EventPics support.',
		deadline:
			'The trigger asks again at its next poll; if this repeats, check the Base URL of the credential.',
		failed:
			'This is the error n8n or Node.js reported, as it was: no network failure the node knows. The trigger asks again at its next poll; if this repeats, report this message and your n8n version at https://github.com/eventpics/n8n-nodes-eventpics/issues.',
	},
	after:
		'The trigger keeps what it has seen: once polls succeed again it reports only what is new, nothing twice.',
};

const fail = (ctx: IPollFunctions, message: string, description: string) =>
	new NodeOperationError(ctx.getNode(), message, { description });

function readWatch(ctx: IPollFunctions): { watch: Watch; title?: string } {
	const on = ctx.getNodeParameter('triggerOn', 'newEvent') as string;
	if (on !== 'newEvent' && on !== 'newAlbum')
		throw fail(
			ctx,
			`"Trigger On" is "${on}", which is not one of its choices`,
			'Choose "New Event" or "New Album" in "Trigger On".',
		);
	if (on === 'newEvent' || ctx.getNodeParameter('albumsOf', 'all') !== 'one')
		return { watch: { on } };
	const linkId = String(ctx.getNodeParameter('event', '', { extractValue: true }) ?? '').trim();
	if (linkId === '')
		throw fail(
			ctx,
			'No event is selected',
			'Choose the event whose new albums start the workflow in the "Event" field, or set "Albums Of" to "All Events".',
		);
	return { watch: { on, linkId }, title: cachedTitle(ctx.getNodeParameter('event', '')) };
}

/**
 * One poll: in a manual test the newest watched event or album (the last listed: there is no creation
 * date); otherwise those not seen before, remembered in static data after a successful answer.
 */
export async function pollEventPics(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const { watch, title } = readWatch(this);
	const { baseUrl, apiKey } = await readCredential(this);
	const events = await listEvents(this, baseUrl, pollPolicy(this)).catch((error: unknown) => {
		throw toNodeError(this.getNode(), error, { secret: apiKey, voice: VOICE });
	});
	const event = events.find(({ linkId }) => linkId === watch.linkId);
	if (watch.linkId !== undefined && !event)
		throw fail(
			this,
			eventNotOfKey(events, watch.linkId, title),
			'The trigger watches the albums of this event. Pick another event in the "Event" field, or set "Albums Of" to "All Events".',
		);
	const items = watchedItems(events, watch);
	if (this.getMode() === 'manual') {
		const newest = items.at(-1);
		if (newest) return [[{ json: newest.json }]];
		throw fail(
			this,
			event
				? `The event ${named(event.title, event.linkId)} has no albums yet`
				: `EventPics lists no ${watch.on === 'newEvent' ? 'events' : 'albums'} for this API key yet`,
			`Create ${watch.on === 'newEvent' ? 'an event' : 'an album'} in the EventPics app, then fetch a test event again.`,
		);
	}
	const credentialId = this.getNode().credentials?.eventPicsApi?.id ?? '';
	const staticData = this.getWorkflowStaticData('node');
	const { fresh, next } = comparePoll(
		staticData[FIELD] as IDataObject | undefined,
		hashKey(JSON.stringify([watch, baseUrl, credentialId])),
		items,
	);
	staticData[FIELD] = next;
	return fresh.length === 0 ? null : [fresh.map((json) => ({ json }))];
}
