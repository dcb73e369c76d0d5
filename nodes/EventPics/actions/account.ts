import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EventSummary } from '../helpers/events';
import { cachedTitle, eventNotOfKey } from '../helpers/naming';
import { listEvents } from '../transport/api';
import type { RetryPolicy } from '../transport/retryPolicy';
import { DEFAULT_RETRY_POLICY } from '../transport/retryPolicy';
import type { CheckedCredential } from '../transport/credential';
import { readCredential } from '../transport/credential';
import type { FailureContext, ShownFailure } from '../transport/errors';
import { failureToError, showFailure } from '../transport/errors';

/** The EventPics account behind the credential's API key, for one execution. */
export interface Account extends CheckedCredential {
	/** The key's events, asked for once per execution and shared by all items. */
	events: (itemIndex: number) => Promise<EventSummary[]>;
}

/**
 * Reads the credential once per execution (see `readCredential`); the events are asked for when first
 * needed. `words` are the operation's advice for a failed listing (see transport/errors.ts).
 */
export async function readAccount(
	ctx: IExecuteFunctions,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
	words: Pick<FailureContext, 'advice' | 'waitLimit'> = {},
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
				...words,
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

/** The event with this link ID, or an error naming the item, the field and the key's events by title. */
export async function findEvent(
	ctx: IExecuteFunctions,
	account: Account,
	linkId: string,
	itemIndex: number,
	pickedTitle?: string,
): Promise<EventSummary> {
	if (linkId === '') {
		throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
			description: 'Choose the event in the "Event" field, from the list or by its link ID.',
			itemIndex,
		});
	}
	const events = await account.events(itemIndex);
	const event = events.find((candidate) => candidate.linkId === linkId);
	if (event) return event;
	throw new NodeOperationError(ctx.getNode(), eventNotOfKey(events, linkId, pickedTitle), {
		description:
			'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		itemIndex,
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
