import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bufferedWarning } from '../../helpers/binaryMode';
import { sanitizeFileName } from '../../helpers/fileName';
import { nameAndContentType } from '../../helpers/mediaType';
import { mimeTypeMismatch } from '../../helpers/sniff';
import { retryPolicyFrom } from '../../transport/retry';
import type { RateSignals } from '../../transport/upload';
import { uploadFile } from '../../transport/upload';
import { failureToError } from '../errors';
import type { Session } from '../session';
import { contentKey, dedupeKey, forget, seenBefore } from './dedupe';
import type { FileSource } from './fileSources';
import type { Inspection } from './inspect';
import { inspectFile } from './inspect';
import type { UploadJob } from './planItem';


function originJson(source: FileSource): IDataObject {
	return source.kind === 'url' ? { url: source.origin } : { binaryField: source.origin };
}

/** The Taken At sent, and where it came from. */
function chooseTakenAt(job: UploadJob, inspection: Inspection): { takenAt?: number; takenAtSource: string | null } {
	if (inspection.takenAt !== undefined) return { takenAt: inspection.takenAt, takenAtSource: 'exif' };
	const { fallback, value } = job.takenAt;
	if (fallback === 'now') return { takenAt: Date.now(), takenAtSource: 'now' };
	if (fallback === 'value' && value !== undefined) return { takenAt: value, takenAtSource: 'value' };
	return { takenAtSource: null };
}

async function fileKey(job: UploadJob, source: FileSource): Promise<string> {
	const custom = String(job.options.dedupeKey ?? '').trim();
	if (custom === '') return await contentKey(source.open);
	return job.sharesItem ? `key:${custom}#${source.origin}` : `key:${custom}`;
}

/** Uploads one file of one item and describes the outcome in the output item's JSON. */
export async function runUploadJob(
	ctx: IExecuteFunctions,
	session: Session,
	job: UploadJob,
	signals: RateSignals,
): Promise<IDataObject> {
	const { itemIndex, options } = job;
	const source = await job.source();
	try {
		const fail = (message: string, description: string) =>
			new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
		const wantedName = sanitizeFileName(options.fileName?.trim() || source.fileName || '');
		if (wantedName === '') {
			throw fail(
				`The file from ${source.kind === 'url' ? 'the URL' : `binary field "${source.origin}"`} of item ${itemIndex} has no file name`,
				'Set a name in Options > "File Name", for example {{ $json.name }}.jpg.',
			);
		}
		const named = nameAndContentType(wantedName, source.mimeType, options.allowUnknownType === true);
		if (!named.ok) {
			throw fail(
				`Cannot tell the media type of item ${itemIndex}'s file: ${named.reason}`,
				'Give the file a name with a known extension in Options > "File Name", or turn on Options > "Send Unknown Types as Octet-Stream".',
			);
		}
		const inspection = await inspectFile(
			source,
			{ exif: job.takenAt.exif, sniff: source.kind === 'binary' },
			named.contentType,
			named.fileName,
			ctx.getTimezone(),
		);
		const { takenAt, takenAtSource } = chooseTakenAt(job, inspection);
		const warnings = [
			inspection.mismatch,
			source.kind === 'binary' ? mimeTypeMismatch(source.mimeType, named.contentType, named.fileName) : undefined,
		].filter((warning): warning is string => warning !== undefined);
		const described: IDataObject = {
			linkId: job.linkId,
			eventTitle: job.eventTitle,
			albumId: job.albumId ?? null,
			fileName: named.fileName,
			contentType: named.contentType,
			bytes: source.size,
			takenAt: takenAt ?? null,
			takenAtSource,
			...originJson(source),
		};
		if (inspection.exif) described.exifTag = inspection.exif.tag;
		if (source.bufferedMode) {
			described.binaryDataMode = source.bufferedMode;
			const note = bufferedWarning(source.bufferedMode, source.size);
			if (note) warnings.push(note);
		}

		let key: string | undefined;
		if (options.skipDuplicates) {
			key = dedupeKey(job.linkId, job.albumId, await fileKey(job, source));
			if (await seenBefore(ctx, key)) {
				return {
					...described,
					skipped: true,
					reason: 'This node uploaded this file to this event and album before (Skip Files Uploaded Before).',
					dedupeKey: key,
				};
			}
		}

		const result = await uploadFile(
			ctx,
			session.baseUrl,
			session.apiKey,
			{
				linkId: job.linkId,
				albumId: job.albumId,
				fileName: named.fileName,
				takenAt,
				contentType: named.contentType,
				size: source.size,
				openBody: source.open,
			},
			retryPolicyFrom(options),
			signals,
		);
		if (!result.value) {
			if (key) await forget(ctx, key);
			throw failureToError(ctx.getNode(), result.failure!, { ...result, itemIndex, secret: session.apiKey });
		}
		const report = result.value;
		const json: IDataObject = {
			...described,
			statusCode: report.statusCode,
			attempts: report.attempts,
			uploadUrlRequests: report.uploadUrlRequests,
		};
		if (key) json.dedupeKey = key;
		if (report.etag) json.etag = report.etag;
		if (report.possibleDuplicate) {
			json.possibleDuplicate = true;
			warnings.push(
				'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.',
			);
		}
		if (warnings.length > 0) json.warnings = warnings;
		return json;
	} finally {
		source.dispose?.();
	}
}
