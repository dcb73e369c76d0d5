import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadBody } from '../../transport/upload';

/** Keys of the files this node uploaded, kept by n8n's deduplication store (as Remove Duplicates does). */
const SCOPE = 'node';
const MAX_ENTRIES = 100_000;

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
 * Whether the key was recorded before; records it when not. A key recorded for a file whose upload
 * then fails must be forgotten with `forget`, or the file would be skipped next time.
 */
export async function seenBefore(ctx: IExecuteFunctions, key: string): Promise<boolean> {
	const result = await oneAtATime(
		async () =>
			await ctx.helpers.checkProcessedAndRecord([key], SCOPE, {
				mode: 'entries',
				maxEntries: MAX_ENTRIES,
			}),
	);
	return result.processed.length > 0;
}

export async function forget(ctx: IExecuteFunctions, key: string): Promise<void> {
	await oneAtATime(
		async () =>
			await ctx.helpers.removeProcessed([key], SCOPE, { mode: 'entries', maxEntries: MAX_ENTRIES }),
	);
}
