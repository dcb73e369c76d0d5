import type { INode, NodeOperationError } from 'n8n-workflow';

import { sanitizeFileName } from '../../../helpers/fileName';
import type { TypeDecision } from '../../../helpers/mediaType';
import { decideType } from '../../../helpers/mediaType';
import { typeRefusal } from './advice';
import type { UploadOptions } from './uploadOptions';

/** The file name to send: Options > File Name, else the file's own, cleaned ('' when there is none). */
export function wantedFileName(options: UploadOptions, ownName: string | undefined): string {
	return sanitizeFileName(options.fileName?.trim() || ownName || '');
}

/**
 * The name and type a file is sent with, from its name, MIME type and first bytes under the item's
 * type options; or the error that refuses it. One rule for a binary field and for a download, which
 * is judged by its first bytes before it is stored.
 */
export function checkedType(
	node: INode,
	itemIndex: number,
	options: UploadOptions,
	source: { kind: 'binary' | 'url'; origin: string; mimeType?: string },
	wantedName: string,
	head: Uint8Array,
): Extract<TypeDecision, { ok: true }> | NodeOperationError {
	const named = decideType(wantedName, source.mimeType, head, {
		allowUnknown: options.fileTypes === 'unknown' || options.fileTypes === 'any',
		allowOther: options.fileTypes === 'any',
	});
	return named.ok ? named : typeRefusal(node, itemIndex, source, named);
}
