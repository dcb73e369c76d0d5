import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { Watched } from './watched';

/**
 * What the trigger remembers between polls, in the node's static data: the events or albums of the
 * last successful poll, each as a short hash of its key (fixed width, so the size is bounded
 * whatever the link IDs), and what was watched (settings, Base URL, credential) as one more hash.
 * Written only after a successful answer: a failed poll changes nothing.
 */
interface Memory {
	watch: string;
	/** KEY_CHARS characters per remembered item, in EventPics' list order. */
	seen: string;
}

/** Most items remembered: 10,000 × 11 characters, about 110 KB of static data at most. */
export const MAX_REMEMBERED = 10_000;

/** Characters of a hash: 66 bits of SHA-256 (base64url); a clash among 10,000 items is about 1 in 10^12. */
const KEY_CHARS = 11;

/** The static data field; a version suffix lets a later shape start over instead of misreading. */
const FIELD = 'eventPicsTriggerV1';

export function hashKey(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, KEY_CHARS);
}

/** The remembered state, or undefined when there is none or it is not one this code wrote. */
export function readMemory(staticData: IDataObject): Memory | undefined {
	const raw = staticData[FIELD] as IDataObject | undefined;
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { watch, seen } = raw;
	if (typeof watch !== 'string' || watch.length !== KEY_CHARS) return undefined;
	if (typeof seen !== 'string' || seen.length % KEY_CHARS !== 0) return undefined;
	if (seen.length > MAX_REMEMBERED * KEY_CHARS || !/^[\w-]*$/.test(seen)) return undefined;
	return { watch, seen };
}

/** Stores the state as a new object, so n8n notices the change and saves it. */
export function writeMemory(staticData: IDataObject, memory: Memory): void {
	staticData[FIELD] = { watch: memory.watch, seen: memory.seen };
}

function remembered(memory: Memory): Set<string> {
	const keys = new Set<string>();
	for (let at = 0; at < memory.seen.length; at += KEY_CHARS)
		keys.add(memory.seen.slice(at, at + KEY_CHARS));
	return keys;
}

/**
 * Which items are new, and what to remember next. Only the last MAX_REMEMBERED items of the list
 * are watched (the same key twice counts once). Nothing is new:
 * - without a memory for this watch (first activation; other settings, Base URL or credential):
 *   what exists is recorded;
 * - when the list is empty: the memory stays, so an answer that lost everything cannot make it
 *   all new again;
 * - when none of at least two remembered items is left and at least two others are listed: that
 *   is another account (a key of another account pasted into the credential) or another server,
 *   not a burst of new ones, so they are recorded instead.
 */
export function comparePoll(
	memory: Memory | undefined,
	watch: string,
	items: Watched[],
): { fresh: Watched[]; next: Memory } {
	const byHash = new Map<string, Watched>();
	for (const item of items.slice(-MAX_REMEMBERED)) {
		const hash = hashKey(item.key);
		if (!byHash.has(hash)) byHash.set(hash, item);
	}
	const next = { watch, seen: [...byHash.keys()].join('') };
	if (memory === undefined || memory.watch !== watch) return { fresh: [], next };
	if (byHash.size === 0) return { fresh: [], next: memory };
	const known = remembered(memory);
	const fresh = [...byHash].filter(([hash]) => !known.has(hash)).map(([, item]) => item);
	const replaced = fresh.length === byHash.size && known.size >= 2 && byHash.size >= 2;
	return { fresh: replaced ? [] : fresh, next };
}
