import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Album, EventSummary } from '../helpers/events';
import {
	albumNotInEvent,
	albumTitleElsewhere,
	cachedTitle,
	eventNotOfKey,
} from '../helpers/naming';
import { listEvents } from '../transport/api';
import type { RetryPolicy } from '../transport/retry';
import { DEFAULT_RETRY_POLICY } from '../transport/retry';
import type { CheckedCredential } from '../transport/credential';
import { readCredential } from '../transport/credential';
import type { FailureContext, ShownFailure } from '../transport/errors';
import { failureToError, showFailure } from '../transport/errors';
import { agentArgument } from './tool.description';

/** The EventPics account behind the credential's API key, for one execution. */
export interface Account extends CheckedCredential {
	/** The key's events, asked for once per execution and shared by all items. */
	events: (itemIndex: number) => Promise<EventSummary[]>;
}

/**
 * Reads the credential once per execution (see `readCredential`); the events are asked for when first
 * needed. `context`: the operation's advice for a failed listing (see transport/errors.ts).
 */
export async function readAccount(
	ctx: IExecuteFunctions,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
	context: Pick<FailureContext, 'advice' | 'waitLimit'> = {},
): Promise<Account> {
	const { baseUrl, apiKey } = await readCredential(ctx);
	let pending: Promise<Awaited<ReturnType<typeof listEvents>>> | undefined;
	// a failed listing fails every item: its answer is cut and redacted once, not once per item
	let shown: ShownFailure | undefined;
	return {
		baseUrl,
		apiKey,
		events: async (itemIndex) => {
			pending ??= listEvents(ctx, baseUrl, policy);
			const result = await pending;
			if (result.value) return result.value;
			shown ??= showFailure(result.failure!, apiKey);
			throw failureToError(ctx.getNode(), shown, {
				...result,
				itemIndex,
				secret: apiKey,
				...context,
			});
		},
	};
}

/** A resource locator's value (trimmed) and the title the editor kept when it was picked from a list. */
export function readLocator(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): { value: string; title?: string } {
	const value = String(
		ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) ?? '',
	).trim();
	const raw: unknown = ctx.getNodeParameter(name, itemIndex, '');
	return { value, title: cachedTitle(raw) };
}

/**
 * An error about the chosen event or album: how to fix it is said to whoever fills the field. When
 * an AI agent fills it (the tool's `$fromAI()` argument `argument`), the fix names that argument and
 * is part of the message too, since AI Agent v3 hands a model only the message of a tool's error.
 */
function placeError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	fix: { user: string; agent: (argument: string) => string; argument?: string },
): NodeOperationError {
	if (fix.argument === undefined) {
		return new NodeOperationError(ctx.getNode(), message, { description: fix.user, itemIndex });
	}
	const description = fix.agent(fix.argument);
	return new NodeOperationError(ctx.getNode(), `${message}. ${description}`, {
		description,
		itemIndex,
	});
}

/** The event with this link ID, or an error naming the item, the field and the key's events by title. */
export async function findEvent(
	ctx: IExecuteFunctions,
	account: Account,
	linkId: string,
	itemIndex: number,
	pickedTitle?: string,
): Promise<EventSummary> {
	const argument = agentArgument(ctx, 'event');
	if (linkId === '') {
		throw placeError(ctx, itemIndex, 'No event is selected', {
			user: 'Choose the event in the "Event" field, from the list or by its link ID.',
			agent: (name) => `Pass the linkId of one of the user's events as ${name}.`,
			argument,
		});
	}
	const events = await account.events(itemIndex);
	const event = events.find((candidate) => candidate.linkId === linkId);
	if (event) return event;
	throw placeError(ctx, itemIndex, eventNotOfKey(events, linkId, pickedTitle), {
		user: 'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		agent: (name) =>
			events.length === 0
				? 'The API key has no events to upload into: tell the user.'
				: `Pass one of the linkIds listed (in brackets) as ${name}.`,
		argument,
	});
}

/** The event the item's "Event" field names, checked against the key's events. */
export async function chosenEvent(
	ctx: IExecuteFunctions,
	account: Account,
	itemIndex: number,
): Promise<EventSummary> {
	const chosen = readLocator(ctx, 'event', itemIndex);
	return await findEvent(ctx, account, chosen.value, itemIndex, chosen.title);
}

/**
 * The event and album the item's "Event" and "Album" fields name, checked against the key's events;
 * no album when "Album" is empty.
 */
export async function chosenEventAndAlbum(
	ctx: IExecuteFunctions,
	account: Account,
	itemIndex: number,
): Promise<{ event: EventSummary; album?: Album }> {
	const event = await chosenEvent(ctx, account, itemIndex);
	const chosenAlbum = readLocator(ctx, 'album', itemIndex);
	const albumId = chosenAlbum.value;
	const album = event.albums.find((candidate) => candidate.id === albumId);
	if (albumId === '' || album) return { event, album };
	const title = albumTitleElsewhere(await account.events(itemIndex), albumId, chosenAlbum.title);
	const none = event.albums.length === 0;
	throw placeError(ctx, itemIndex, albumNotInEvent(event, albumId, title), {
		user: none
			? 'Leave the "Album" field empty (choose "No album" in the list): this event has no albums.'
			: 'Pick the album again in the "Album" field (its list shows the albums of the chosen event), or leave it empty.',
		agent: (name) =>
			none
				? `Pass an empty ${name}: this event has no albums, so the file goes into the event itself.`
				: `Pass one of the album ids listed (in brackets) as ${name}, or an empty ${name} to upload into the event itself.`,
		argument: agentArgument(ctx, 'album'),
	});
}
