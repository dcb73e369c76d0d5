import { createHash } from 'node:crypto';

import type { UploadBody } from '../../../transport/upload';
import type { FileSource } from './fileSources';
import type { UploadJob } from './itemJobs';

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

/** What identifies the file for Skip Files Uploaded Before: the custom Duplicate Key, or its content. */
export async function fileKey(job: UploadJob, source: FileSource): Promise<string> {
	const custom = String(job.options.dedupeKey ?? '').trim();
	if (custom === '') return await contentKey(source.open);
	return job.sharesItem ? `key:${custom}#${source.origin}` : `key:${custom}`;
}
