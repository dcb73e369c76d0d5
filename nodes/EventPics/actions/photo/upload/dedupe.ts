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

/** A File ID as the history keeps it (Keep New Files asks for the same). */
export const fileIdKey = (fileId: string) => `key:${fileId}`;

/** What identifies the file for Skip Files Uploaded Before: its File ID, or its content. */
export async function fileKey(job: UploadJob, source: FileSource): Promise<string> {
	const skip = job.options.skip;
	if (skip?.by !== 'fileId') return await contentKey(source.open);
	// several files of one item share its File ID: each is told apart by its binary field
	return fileIdKey(job.sharesItem ? `${skip.fileId}#${source.origin}` : skip.fileId);
}
