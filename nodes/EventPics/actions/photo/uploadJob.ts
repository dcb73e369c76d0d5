import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bufferedWarning } from '../../helpers/binaryMode';
import { sanitizeFileName } from '../../helpers/fileName';
import type { TypeDecision } from '../../helpers/mediaType';
import { decideType } from '../../helpers/mediaType';
import { mimeTypeMismatch } from '../../helpers/sniff';
import { retryPolicyFrom } from '../../transport/retryPolicy';
import type { RateSignals } from '../../transport/upload';
import { uploadFile } from '../../transport/upload';
import { failureToError } from '../../transport/errors';
import type { Account } from '../account';
import { contentKey } from './dedupe';
import type { FileFacts } from './fileOutput';
import { fileOutput, takenAtFacts } from './fileOutput';
import type { FileSource } from './fileSources';
import type { Inspection } from './inspect';
import { bodyOpener, chooseTakenAt, inspectFile } from './inspect';
import type { UploadJob } from './itemJobs';
import type { FileDedupe } from './skipPlan';
import { TYPE_ADVICE, uploadFailureAdvice, WAIT_LIMIT } from './advice';

function describeSource(source: FileSource): string {
	return source.kind === 'url'
		? `the File URL "${source.origin}"`
		: `binary field "${source.origin}"`;
}

function typeRefusal(
	ctx: IExecuteFunctions,
	job: UploadJob,
	source: FileSource,
	refusal: Extract<TypeDecision, { ok: false }>,
) {
	const message =
		refusal.kind === 'unknown'
			? `Cannot tell the media type of item ${job.itemIndex}'s file: ${refusal.reason}`
			: `Item ${job.itemIndex}'s file from ${describeSource(source)} is refused: ${refusal.reason}`;
	return new NodeOperationError(ctx.getNode(), message, {
		description: TYPE_ADVICE[refusal.kind],
		itemIndex: job.itemIndex,
	});
}

function originFacts(source: FileSource): FileFacts {
	return source.kind === 'url' ? { url: source.origin } : { binaryField: source.origin };
}

/** What identifies the file for Skip Files Uploaded Before: the custom Duplicate Key, or its content. */
export async function fileKey(job: UploadJob, source: FileSource): Promise<string> {
	const custom = String(job.options.dedupeKey ?? '').trim();
	if (custom === '') return await contentKey(source.open);
	return job.sharesItem ? `key:${custom}#${source.origin}` : `key:${custom}`;
}

/** Uploads one file of one item and describes the outcome in the output item's JSON. */
export async function runUploadJob(
	ctx: IExecuteFunctions,
	account: Account,
	job: UploadJob,
	signals: RateSignals,
	dedupe?: FileDedupe,
): Promise<IDataObject> {
	const source = dedupe?.source ?? (await job.source());
	try {
		return await uploadSource(ctx, account, job, source, signals, dedupe);
	} finally {
		// a file that n8n's binary data mode made us hold whole in memory is let go at once
		source.dispose?.();
	}
}

async function uploadSource(
	ctx: IExecuteFunctions,
	account: Account,
	job: UploadJob,
	source: FileSource,
	signals: RateSignals,
	dedupe: FileDedupe | undefined,
): Promise<IDataObject> {
	const { itemIndex, options } = job;
	const itemError = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
	const wantedName = sanitizeFileName(options.fileName?.trim() || source.fileName || '');
	if (wantedName === '') {
		throw itemError(
			`The file from ${source.kind === 'url' ? 'the URL' : `binary field "${source.origin}"`} of item ${itemIndex} has no file name`,
			'Set a name in Options > "File Name", for example {{ $json.name }}.jpg.',
		);
	}
	const inspection = await inspectFile(source, job.takenAt.exif, ctx.getTimezone());
	try {
		return await uploadInspected(ctx, account, job, signals, {
			source,
			inspection,
			wantedName,
			dedupe,
		});
	} finally {
		inspection.held?.release(); // refused, skipped or failed before the PUT took it
	}
}

async function uploadInspected(
	ctx: IExecuteFunctions,
	account: Account,
	job: UploadJob,
	signals: RateSignals,
	file: { source: FileSource; inspection: Inspection; wantedName: string; dedupe?: FileDedupe },
): Promise<IDataObject> {
	const { itemIndex, options } = job;
	const { source, inspection, wantedName, dedupe } = file;
	const named = decideType(wantedName, source.mimeType, inspection.head, {
		allowUnknown: options.allowUnknownType === true,
		allowOther: options.allowOtherTypes === true,
		// fetched content that no format check recognises is refused; a workflow's own file is only
		// flagged (README, "What an album accepts")
		unrecognised: source.kind === 'url' ? 'refuse' : 'warn',
	});
	if (!named.ok) throw typeRefusal(ctx, job, source, named);
	const { takenAt, takenAtSource } = chooseTakenAt(job, inspection);
	const warnings = [...named.warnings];
	const binaryMismatch = source.kind === 'binary' && !named.fromContent;
	const ownType = binaryMismatch
		? mimeTypeMismatch(source.mimeType, named.contentType, named.fileName)
		: undefined;
	if (ownType) warnings.push(ownType);
	const described: FileFacts = {
		...job.facts,
		fileName: named.fileName,
		contentType: named.contentType,
		bytes: source.size,
		...takenAtFacts(takenAt, ctx.getTimezone()),
		takenAtSource,
		exifTag: inspection.exif?.tag,
		...originFacts(source),
		typeFromContent: named.fromContent,
		binaryDataMode: source.bufferedMode,
		warnings,
	};
	if (source.bufferedMode) {
		const note = bufferedWarning(source.bufferedMode, source.size);
		if (note) warnings.push(note);
	}

	if (dedupe) {
		const turn = await dedupe.turn();
		if (turn.skip) {
			return fileOutput('skipped', { ...described, reason: turn.reason, dedupeKey: dedupe.key });
		}
	}

	const result = await uploadFile(
		ctx,
		account.baseUrl,
		account.apiKey,
		{
			linkId: job.linkId,
			albumId: job.albumId,
			fileName: named.fileName,
			takenAt,
			contentType: named.contentType,
			size: source.size,
			allowInternal: options.allowInternalAddresses === true,
			openBody: bodyOpener(source, inspection),
		},
		retryPolicyFrom(options),
		signals,
	);
	if (!result.value) {
		throw failureToError(ctx.getNode(), result.failure!, {
			...result,
			itemIndex,
			secret: account.apiKey,
			advice: uploadFailureAdvice,
			waitLimit: WAIT_LIMIT,
		});
	}
	const report = result.value;
	dedupe?.settle(true); // recorded only now that the storage confirmed the file
	// a retry of a transfer that was moving when it broke: said, with how far it had come
	warnings.push(...report.brokenTransfers);
	if (report.possibleDuplicate) {
		warnings.push(
			'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.',
		);
	}
	return fileOutput('uploaded', {
		...described,
		statusCode: report.statusCode,
		attempts: report.attempts,
		uploadUrlRequests: report.uploadUrlRequests,
		etag: report.etag,
		dedupeKey: dedupe?.key,
		possibleDuplicate: report.possibleDuplicate === true,
	});
}
