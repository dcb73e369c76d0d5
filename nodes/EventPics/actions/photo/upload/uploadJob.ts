import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bufferedWarning } from '../../../helpers/binaryMode';
import { mimeTypeMismatch } from '../../../helpers/sniff';
import type { RateSignals } from '../../../transport/pacing';
import { uploadFile } from '../../../transport/upload';
import { failureToError } from '../../../transport/errors';
import type { Account } from '../../account';
import type { FileDetails } from './fileOutput';
import { fileOutput, takenAtDetails } from './fileOutput';
import type { FileSource } from './fileSources';
import type { Inspection } from './fileBody';
import { FileBody } from './fileBody';
import type { UploadJob } from './itemJobs';
import type { FileDedupe } from './skipPlan';
import { UPLOAD_ADVICE, WAIT_LIMIT } from './advice';
import { checkedType, wantedFileName } from './fileType';

function originDetails(source: FileSource): FileDetails {
	return source.kind === 'url' ? { url: source.origin } : { binaryField: source.origin };
}

/** A file ready to be sent: its name and type decided, and what its output item says of it. */
interface DescribedFile {
	fileName: string;
	contentType: string;
	size: number;
	takenAt?: number;
	details: FileDetails;
	warnings: string[];
}

/**
 * Uploads one file of one item and describes the outcome in the output item's JSON. The file's
 * body (fileBody.ts) is opened for a look at its start, sent, and disposed of here, in one place.
 */
export async function runUploadJob(
	ctx: IExecuteFunctions,
	account: Account,
	job: UploadJob,
	signals: RateSignals,
	dedupe?: FileDedupe,
): Promise<IDataObject> {
	const source = dedupe?.source ?? (await job.source());
	const body = new FileBody(source);
	try {
		const wantedName = nameOf(ctx, job, source);
		const inspection = await body.readHead(job.takenAt.exif, ctx.getTimezone());
		const file = describeFile(ctx, job, source, wantedName, inspection);
		if (dedupe) {
			const turn = await dedupe.turn();
			if (turn.skip) {
				const details = { ...file.details, reason: turn.reason, dedupeKey: dedupe.key };
				return fileOutput('skipped', details);
			}
		}
		const { wholeness } = inspection;
		if (wholeness.whole === false && job.options.fileTypes !== 'any') {
			const reason = `"${file.fileName}" is cut short: ${wholeness.reason} (${wholeness.format}). It was not uploaded: if it is still being written, a later run takes it; if it is damaged, replace it.`;
			return fileOutput('incomplete', { ...file.details, reason, dedupeKey: dedupe?.key });
		}
		return await sendFile(ctx, { account, job, signals, dedupe }, file, body);
	} finally {
		body.dispose(); // refused, skipped, failed or sent: every stream closed, memory let go
	}
}

/** The file name to send: Options > File Name, else the file's own, cleaned; an error when none. */
function nameOf(ctx: IExecuteFunctions, job: UploadJob, source: FileSource): string {
	const { itemIndex, options } = job;
	const wantedName = wantedFileName(options, source.fileName);
	if (wantedName !== '') return wantedName;
	const from = source.kind === 'url' ? 'the URL' : `binary field "${source.origin}"`;
	throw new NodeOperationError(
		ctx.getNode(),
		`The file from ${from} of item ${itemIndex} has no file name`,
		{
			description: 'Set a name in Options > "File Name", for example {{ $json.name }}.jpg.',
			itemIndex,
		},
	);
}

/** The Taken At sent, and where it came from. */
function takenAtOf(job: UploadJob, inspection: Inspection) {
	if (inspection.takenAt !== undefined)
		return { takenAt: inspection.takenAt, takenAtSource: 'exif' };
	const { fallback, value } = job.takenAt;
	if (fallback === 'now') return { takenAt: Date.now(), takenAtSource: 'now' };
	if (fallback === 'value' && value !== undefined)
		return { takenAt: value, takenAtSource: 'value' };
	return { takenAt: undefined, takenAtSource: null };
}

/** Decides the file's name and type (or refuses it) and gathers what its output item says. */
function describeFile(
	ctx: IExecuteFunctions,
	job: UploadJob,
	source: FileSource,
	wantedName: string,
	inspection: Inspection,
): DescribedFile {
	const named = checkedType(
		ctx.getNode(),
		job.itemIndex,
		job.options,
		source,
		wantedName,
		inspection.head,
	);
	if (named instanceof Error) throw named;
	const { takenAt, takenAtSource } = takenAtOf(job, inspection);
	const warnings = [...named.warnings];
	const ownType =
		source.kind === 'binary' && !named.fromContent
			? mimeTypeMismatch(source.mimeType, named.contentType, named.fileName)
			: undefined;
	if (ownType) warnings.push(ownType);
	const buffered = source.bufferedMode && bufferedWarning(source.bufferedMode, source.size);
	if (buffered) warnings.push(buffered);
	const details: FileDetails = {
		...job.details,
		fileName: named.fileName,
		contentType: named.contentType,
		bytes: source.size,
		...takenAtDetails(takenAt, ctx.getTimezone()),
		takenAtSource,
		exifTag: inspection.exif?.tag,
		...originDetails(source),
		typeFromContent: named.fromContent,
		whole: inspection.wholeness.whole ?? null,
		binaryDataMode: source.bufferedMode,
		warnings,
	};
	const { fileName, contentType } = named;
	return { fileName, contentType, size: source.size, takenAt, details, warnings };
}

/** Sends the file (getuploadurl, then the PUT, with retries) and words the outcome. */
async function sendFile(
	ctx: IExecuteFunctions,
	run: { account: Account; job: UploadJob; signals: RateSignals; dedupe?: FileDedupe },
	file: DescribedFile,
	body: FileBody,
): Promise<IDataObject> {
	const { account, job, signals, dedupe } = run;
	const spec = {
		linkId: job.linkId,
		albumId: job.albumId,
		fileName: file.fileName,
		takenAt: file.takenAt,
		contentType: file.contentType,
		size: file.size,
		allowInternal: job.options.allowInternalAddresses === true,
		body,
	};
	const result = await uploadFile(ctx, account.baseUrl, account.apiKey, spec, job.policy, signals);
	if (!result.value) {
		throw failureToError(ctx.getNode(), result.failure!, {
			...result,
			itemIndex: job.itemIndex,
			secret: account.apiKey,
			advice: UPLOAD_ADVICE,
			waitLimit: WAIT_LIMIT,
		});
	}
	const report = result.value;
	dedupe?.settle(true); // recorded only now that the storage confirmed the file
	// a retry of a transfer that was moving when it broke: said, with how far it had come
	file.warnings.push(...report.brokenTransfers);
	if (report.possibleDuplicate) {
		file.warnings.push(
			'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.',
		);
	}
	return fileOutput('uploaded', {
		...file.details,
		statusCode: report.statusCode,
		attempts: report.attempts,
		uploadUrlRequests: report.uploadUrlRequests,
		etag: report.etag,
		dedupeKey: dedupe?.key,
		possibleDuplicate: report.possibleDuplicate === true,
	});
}
