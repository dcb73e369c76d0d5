import { createHash } from 'node:crypto';
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { UploadBody } from '../../transport/upload';

/** Keys of the files this node uploaded, kept by n8n's deduplication store (as Remove Duplicates does). */
const SCOPE = 'node';
const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: 100_000 };
/**
 * The end-of-run check (confirmRecorded): at most `rounds` rounds, `pauseMs` apart, longer than one
 * read-and-rewrite of the store takes. Tests that do not race other workers shorten the pause.
 */
export const CONFIRM_TIMING = { pauseMs: 1000, rounds: 8 };

/** SHA-256 of the body as lower-case hex, chunk by chunk (node:crypto, allowed by n8n's scanner). */
async function hashBody(body: UploadBody): Promise<string> {
	const hash = createHash('sha256');
	if (Buffer.isBuffer(body)) return hash.update(body).digest('hex');
	for await (const chunk of body) hash.update(chunk as Uint8Array);
	return hash.digest('hex');
}

/** The content hash of a file, read once from its source with flat memory. */
export async function contentKey(open: () => Promise<UploadBody>): Promise<string> {
	return `sha256:${await hashBody(await open())}`;
}

/** The key under which an upload to this event and album is remembered. */
export function dedupeKey(linkId: string, albumId: string | undefined, fileKey: string): string {
	return `${linkId}/${albumId ?? ''}/${fileKey}`;
}

/**
 * n8n's store reads and rewrites a node's whole list on every call, so calls from concurrent
 * uploads could overwrite each other: they are made one at a time.
 */
let queue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(call: () => Promise<T>): Promise<T> {
	const result = queue.then(call, call);
	queue = result.catch(() => undefined);
	return result;
}

/**
 * Once more when a call fails: two processes that record the node's first key at the same moment
 * both insert its row, and the database refuses the second insert (the row then exists).
 */
async function againOnce<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch {
		return await call();
	}
}

/** Keys recorded during one run of the node, to be confirmed at its end. */
const recorded = new WeakMap<IExecuteFunctions, Set<string>>();

function keysOf(ctx: IExecuteFunctions): Set<string> {
	let keys = recorded.get(ctx);
	if (!keys) recorded.set(ctx, (keys = new Set()));
	return keys;
}

/**
 * Whether the key was recorded before; records it when not. A key recorded for a file whose upload
 * then fails must be forgotten with `forget`, or the file would be skipped next time.
 */
export async function seenBefore(ctx: IExecuteFunctions, key: string): Promise<boolean> {
	const result = await oneAtATime(
		async () =>
			await againOnce(async () => await ctx.helpers.checkProcessedAndRecord([key], SCOPE, STORE)),
	);
	const seen = result.processed.length > 0;
	if (!seen) keysOf(ctx).add(key);
	return seen;
}

export async function forget(ctx: IExecuteFunctions, key: string): Promise<void> {
	keysOf(ctx).delete(key);
	await oneAtATime(async () => await ctx.helpers.removeProcessed([key], SCOPE, STORE));
}

/**
 * In queue mode several workers record into the same list, and n8n rewrites it without a lock: a
 * worker that read the list just before another one wrote can write back over that one's keys.
 * So at the end of a run the node records its keys once more (n8n's store answers which of them
 * were missing), and stops after two such rounds a pause apart (longer than one rewrite takes)
 * found none missing. Returns how many keys had gone missing and were recorded again.
 */
export async function confirmRecorded(ctx: IExecuteFunctions): Promise<number> {
	const keys = [...keysOf(ctx)];
	recorded.delete(ctx);
	if (keys.length === 0) return 0;
	let restored = 0;
	let clean = 0;
	for (let round = 0; round < CONFIRM_TIMING.rounds && clean < 2; round++) {
		if (round > 0) await sleep(CONFIRM_TIMING.pauseMs);
		const result = await oneAtATime(
			async () =>
				await againOnce(async () => await ctx.helpers.checkProcessedAndRecord(keys, SCOPE, STORE)),
		);
		restored += result.new.length;
		clean = result.new.length === 0 ? clean + 1 : 0;
	}
	return restored;
}
