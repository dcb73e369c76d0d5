import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EventSummary } from '../../EventPics/helpers/events';
import { eventNotOfKey, named } from '../../EventPics/helpers/naming';
import { listEvents } from '../../EventPics/transport/api';
import { readCredential } from '../../EventPics/transport/credential';
import type { RetryPolicy } from '../../EventPics/transport/retry';
import { DEFAULT_RETRY_POLICY } from '../../EventPics/transport/retry';
import { comparePoll, hashKey, readMemory, writeMemory } from './memory';
import { pollFailure } from './pollFailure';
import { readWatch } from './settings';
import type { Watch } from './watched';
import { newestItem, watchedItems } from './watched';

/** A poll asks once, and tries again only briefly: the next poll comes anyway. */
const POLL_RETRY: RetryPolicy = {
	...DEFAULT_RETRY_POLICY,
	maxAttempts: 3,
	maxTotalWaitMs: 15_000,
	baseDelayMs: 1_000,
	maxDelayMs: 10_000,
	timeoutMs: 30_000,
};

/**
 * The retry policy within the time n8n gives a poll (5 minutes unless its scheduler says less):
 * at most a quarter of it waiting, the rest shared by the tries.
 */
export function pollPolicy(ctx: IPollFunctions): RetryPolicy {
	const budget = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
	if (budget === undefined || !Number.isFinite(budget) || budget <= 0) return POLL_RETRY;
	const maxTotalWaitMs = Math.min(POLL_RETRY.maxTotalWaitMs, budget / 4);
	const perCall = (budget - maxTotalWaitMs) / POLL_RETRY.maxAttempts;
	return {
		...POLL_RETRY,
		maxTotalWaitMs,
		timeoutMs: Math.max(1_000, Math.min(POLL_RETRY.timeoutMs, perCall)),
	};
}

/** The event a New Album watch is limited to, or an error naming the key's events. */
function checkWatchedEvent(
	ctx: IPollFunctions,
	events: EventSummary[],
	watch: Watch,
	title?: string,
) {
	if (watch.on !== 'newAlbum' || watch.linkId === undefined) return;
	if (events.some((event) => event.linkId === watch.linkId)) return;
	throw new NodeOperationError(ctx.getNode(), eventNotOfKey(events, watch.linkId, title), {
		description:
			'The trigger watches the albums of this event. Pick another event in the "Event" field, or set "Albums Of" to "All Events".',
	});
}

/** The error of a manual test when there is nothing to show: what to create. */
function nothingYet(ctx: IPollFunctions, events: EventSummary[], watch: Watch): NodeOperationError {
	if (watch.on === 'newEvent') {
		return new NodeOperationError(ctx.getNode(), 'EventPics lists no events for this API key yet', {
			description: 'Create an event in the EventPics app, then fetch a test event again.',
		});
	}
	const event = events.find((candidate) => candidate.linkId === watch.linkId);
	const message = event
		? `The event ${named(event.title, event.linkId)} has no albums yet`
		: 'EventPics lists no albums for this API key yet';
	return new NodeOperationError(ctx.getNode(), message, {
		description: 'Create an album in the EventPics app, then fetch a test event again.',
	});
}

/** What is watched, with where from: other settings, Base URL or credential start over. */
function watchHash(ctx: IPollFunctions, watch: Watch, baseUrl: string): string {
	const credentialId = ctx.getNode().credentials?.eventPicsApi?.id ?? '';
	return hashKey(JSON.stringify([watch, baseUrl, credentialId]));
}

/**
 * One poll: list the key's events; in a manual test, the newest watched event or album; otherwise
 * those not seen at the last successful poll (none at the first), remembered in the node's static data.
 */
export async function pollEventPics(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const { watch, eventTitle } = readWatch(this);
	const { baseUrl, apiKey } = await readCredential(this);
	const result = await listEvents(this, baseUrl, pollPolicy(this));
	if (!result.value) throw pollFailure(this.getNode(), result, apiKey);
	checkWatchedEvent(this, result.value, watch, eventTitle);
	const items = watchedItems(result.value, watch);
	if (this.getMode() === 'manual') {
		const newest = newestItem(items);
		if (newest) return [[{ json: newest.json }]];
		throw nothingYet(this, result.value, watch);
	}
	const staticData = this.getWorkflowStaticData('node');
	const { fresh, next } = comparePoll(
		readMemory(staticData),
		watchHash(this, watch, baseUrl),
		items,
	);
	writeMemory(staticData, next);
	return fresh.length === 0 ? null : [fresh.map((item) => ({ json: item.json }))];
}
