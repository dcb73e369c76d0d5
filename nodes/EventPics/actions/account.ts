import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EventSummary } from '../helpers/events';
import { albumNotInEvent, cachedTitle, eventNotOfKey } from '../helpers/events';
import type { Policy } from '../transport/request';
import { DEFAULT_POLICY, listEvents, readCredential } from '../transport/request';
import { agentArgument } from './node.description';

/** The EventPics account behind the credential, for one execution: read once, its events asked once. */
export async function readAccount(ctx: IExecuteFunctions, policy: Policy = DEFAULT_POLICY) {
	const credential = await readCredential(ctx);
	let events: Promise<EventSummary[]> | undefined;
	return {
		...credential,
		events: async () => await (events ??= listEvents(ctx, credential.baseUrl, policy)),
	};
}

export type Account = Awaited<ReturnType<typeof readAccount>>;

export type ItemExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	account: Account,
) => Promise<INodeExecutionData[]>;

/** Whether a parameter as the node holds it has an expression anywhere (then it may differ per item). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	return typeof value === 'object' && value !== null && Object.values(value).some(holdsExpression);
}

const locatorOfItem = (ctx: IExecuteFunctions, name: string, itemIndex: number) => ({
	value: String(ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) ?? '').trim(),
	title: cachedTitle(ctx.getNodeParameter(name, itemIndex, '')),
});

/** Per execution: each locator read once when it has no expression (the same for every item). */
const locatorsOf = new WeakMap<IExecuteFunctions, Map<string, ReturnType<typeof locatorOfItem>>>();

/** A resource locator's value (trimmed) and the title the editor kept when it was picked from a list. */
export function readLocator(ctx: IExecuteFunctions, name: string, itemIndex: number) {
	if (holdsExpression(ctx.getNode().parameters[name])) return locatorOfItem(ctx, name, itemIndex);
	let locators = locatorsOf.get(ctx);
	if (!locators) locatorsOf.set(ctx, (locators = new Map()));
	if (!locators.has(name)) locators.set(name, locatorOfItem(ctx, name, itemIndex));
	return locators.get(name)!;
}

/**
 * An error about the chosen event or album, with the fix for whoever fills the field; an AI agent's fix
 * is in the message too, since AI Agent v3 hands a model only the message of a tool's error.
 */
function placeError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	fix: { user: string; agent: (argument: string) => string; field: string },
): NodeOperationError {
	const argument = agentArgument(ctx, fix.field);
	const description = argument === undefined ? fix.user : fix.agent(argument);
	const full = argument === undefined ? message : `${message}. ${description}`;
	return new NodeOperationError(ctx.getNode(), full, { description, itemIndex });
}

export async function chosenEvent(ctx: IExecuteFunctions, account: Account, itemIndex: number) {
	const chosen = readLocator(ctx, 'event', itemIndex);
	if (chosen.value === '')
		throw placeError(ctx, itemIndex, 'No event is selected', {
			user: 'Choose the event in the "Event" field, from the list or by its link ID.',
			agent: (name) => `Pass the linkId of one of the user's events as ${name}.`,
			field: 'event',
		});
	const events = await account.events();
	const event = events.find((candidate) => candidate.linkId === chosen.value);
	if (event) return event;
	throw placeError(ctx, itemIndex, eventNotOfKey(events, chosen.value, chosen.title), {
		user: 'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		agent: (name) =>
			events.length === 0
				? 'The API key has no events to upload into: tell the user.'
				: `Pass one of the linkIds listed (in brackets) as ${name}.`,
		field: 'event',
	});
}

/** The event and album the item's fields name, checked against the key's events; no album when empty. */
export async function chosenEventAndAlbum(
	ctx: IExecuteFunctions,
	account: Account,
	itemIndex: number,
) {
	const event = await chosenEvent(ctx, account, itemIndex);
	const chosen = readLocator(ctx, 'album', itemIndex);
	const album = event.albums.find((candidate) => candidate.id === chosen.value);
	if (chosen.value === '' || album) return { event, album };
	// its title: the one it has in another event of the key, else the one the editor kept
	const elsewhere = (await account.events())
		.flatMap((other) => other.albums)
		.find((other) => other.id === chosen.value);
	const none = event.albums.length === 0;
	const message = albumNotInEvent(event, chosen.value, elsewhere?.title ?? chosen.title);
	throw placeError(ctx, itemIndex, message, {
		user: none
			? 'Leave the "Album" field empty (choose "No album" in the list): this event has no albums.'
			: 'Pick the album again in the "Album" field (its list shows the albums of the chosen event), or leave it empty.',
		agent: (name) =>
			none
				? `Pass an empty ${name}: this event has no albums, so the file goes into the event itself.`
				: `Pass one of the album ids listed (in brackets) as ${name}, or an empty ${name} to upload into the event itself.`,
		field: 'album',
	});
}
