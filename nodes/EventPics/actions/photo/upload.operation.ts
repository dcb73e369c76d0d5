import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { resolveBinary } from '../../helpers/binary';
import { sanitizeFileName } from '../../helpers/fileName';
import { nameAndContentType } from '../../helpers/mediaType';
import { parseTakenAt } from '../../helpers/takenAt';
import type { RetryPolicy } from '../../transport/retry';
import { DEFAULT_RETRY_POLICY } from '../../transport/retry';
import { uploadFile } from '../../transport/upload';
import { failureToError } from '../errors';
import { forEachItem } from '../items';
import type { Session } from '../session';
import { findEvent, openSession } from '../session';
import { uploadDescription } from './upload.description';

export const description: INodeProperties[] = uploadDescription;

interface UploadOptions {
	fileName?: string;
	takenAt?: unknown;
	allowUnknownType?: boolean;
	maxAttempts?: number;
	maxTotalWaitSeconds?: number;
}

function retryPolicy(options: UploadOptions): RetryPolicy {
	return {
		...DEFAULT_RETRY_POLICY,
		maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts)),
		maxTotalWaitMs: Math.max(0, (options.maxTotalWaitSeconds ?? DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000) * 1000),
	};
}

async function uploadItem(
	ctx: IExecuteFunctions,
	session: Session,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const node = ctx.getNode();
	const fail = (message: string, description: string) =>
		new NodeOperationError(node, message, { description, itemIndex });

	const linkId = String(ctx.getNodeParameter('event', itemIndex, '', { extractValue: true })).trim();
	const albumId = String(ctx.getNodeParameter('album', itemIndex, '', { extractValue: true }) ?? '').trim();
	const propertyName = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const options = ctx.getNodeParameter('options', itemIndex, {}) as UploadOptions;

	const event = await findEvent(ctx, session, linkId, itemIndex);
	if (albumId !== '' && !event.albums.some((album) => album.id === albumId)) {
		const known = event.albums.map((album) => album.id).join(', ');
		throw fail(
			`The album "${albumId}" is not an album of the event "${event.linkId}"`,
			`Pick the album in the "Album" field from the list, or leave it empty. The event's albums are: ${known || 'none'}.`,
		);
	}

	const lookup = await resolveBinary(ctx, itemIndex, propertyName);
	if (!lookup.ok) {
		throw fail(
			`Item ${itemIndex} ${lookup.reason}`,
			'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
		);
	}
	const binary = lookup.binary;
	if (binary.size === 0) {
		throw fail(
			`The file in binary field "${propertyName}" of item ${itemIndex} is empty (0 bytes)`,
			'Check the node that produced the file: an empty file cannot be uploaded.',
		);
	}

	const wantedName = sanitizeFileName(options.fileName?.trim() || binary.fileName || '');
	if (wantedName === '') {
		throw fail(
			`The file in binary field "${propertyName}" of item ${itemIndex} has no file name`,
			'Set a name in Options > "File Name", for example {{ $json.name }}.jpg.',
		);
	}
	const named = nameAndContentType(wantedName, binary.mimeType, options.allowUnknownType === true);
	if (!named.ok) {
		throw fail(
			`Cannot tell the media type of item ${itemIndex}'s file: ${named.reason}`,
			'Give the file a name with a known extension in Options > "File Name", or turn on Options > "Send Unknown Types as Octet-Stream".',
		);
	}

	const takenAt = parseTakenAt(options.takenAt, ctx.getTimezone());
	if (!takenAt.ok) {
		throw fail(
			`Taken At of item ${itemIndex} cannot be read: ${takenAt.reason}`,
			'Use an ISO 8601 date such as 2026-06-20T18:30:00+02:00, epoch milliseconds or seconds, or an n8n date such as {{ $now }}.',
		);
	}

	const result = await uploadFile(
		ctx,
		session.baseUrl,
		session.apiKey,
		{
			linkId: event.linkId,
			albumId: albumId || undefined,
			fileName: named.fileName,
			takenAt: takenAt.value,
			contentType: named.contentType,
			size: binary.size,
			openBody: binary.open,
		},
		retryPolicy(options),
	);
	if (!result.value) {
		throw failureToError(node, result.failure!, { ...result, itemIndex, secret: session.apiKey });
	}

	const report = result.value;
	const json: IDataObject = {
		linkId: event.linkId,
		eventTitle: event.title,
		albumId: albumId || null,
		fileName: named.fileName,
		contentType: named.contentType,
		bytes: binary.size,
		takenAt: takenAt.value ?? null,
		statusCode: report.statusCode,
		attempts: report.attempts,
		uploadUrlRequests: report.uploadUrlRequests,
		binaryField: propertyName,
	};
	if (report.etag) json.etag = report.etag;
	if (report.possibleDuplicate) {
		json.possibleDuplicate = true;
		json.warning =
			'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.';
	}
	return [{ json }];
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const session = await openSession(this);
	return await forEachItem(this, async (itemIndex) => await uploadItem(this, session, itemIndex));
}
