import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TypeDecision } from '../../../helpers/mediaType';
import type { AdviceByKind } from '../../../transport/errors';
import { FILE_TYPES } from './uploadOptions';

const ANY_FILE = `set Options > "File Types" to "${FILE_TYPES.any}"`;

/**
 * What the Upload operation tells a user to do: the advice that names its options. Transport says
 * what failed and gives general advice; the words that point at an option are the operation's, here.
 */

const TYPE_ADVICE: Record<Extract<TypeDecision, { ok: false }>['kind'], string> = {
	unknown: `Give the file a name with a known extension in Options > "File Name", or set Options > "File Types" to "${FILE_TYPES.unknown}" to send it as application/octet-stream.`,
	notMedia: `An event album holds photos and videos (image/*, video/*). Give the file its right extension in Options > "File Name", or ${ANY_FILE} to upload it anyway.`,
	text: `This is usually an error or login page instead of the file. Check the address or binary field; to upload the file anyway, ${ANY_FILE}.`,
	unrecognised: `A file named as a photo or video must be one the node can recognise (JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF, BMP, MP4, QuickTime, AVI, WebM, Matroska, MPEG). Check the file or its address; to upload it anyway, ${ANY_FILE}.`,
};

/** A file whose type is unknown or not one an album takes: which file, why, and what to do. */
export function typeRefusal(
	node: INode,
	itemIndex: number,
	source: { kind: 'binary' | 'url'; origin: string },
	refusal: Extract<TypeDecision, { ok: false }>,
): NodeOperationError {
	const from =
		source.kind === 'url' ? `the File URL "${source.origin}"` : `binary field "${source.origin}"`;
	const message =
		refusal.kind === 'unknown'
			? `Cannot tell the media type of item ${itemIndex}'s file: ${refusal.reason}`
			: `Input item ${itemIndex}'s file from ${from} is refused: ${refusal.reason}`;
	return new NodeOperationError(node, message, {
		description: TYPE_ADVICE[refusal.kind],
		itemIndex,
	});
}

/** What to do when a file cannot be found where the item says: by what is missing. */
export const SOURCE_ADVICE = {
	fileUrl: 'Set "File URL" to the http(s) address of the file.',
	rerun:
		'Run the node that produced the file again in this workflow, so that its file is stored anew.',
	binaryField:
		'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
} as const;

/** Max Total Wait, as a failure's description names it. */
export const WAIT_LIMIT = '"Max Total Wait (Seconds)"';

/** A failed call of the Upload operation: the advice that names its options (else the general one). */
export const UPLOAD_ADVICE: AdviceByKind = {
	refusedAddress:
		'An upload address must use https:// (plain http:// only with a local http:// Base URL) and point outside this machine and its network, unless the Base URL is itself a local address or Options > "Allow Internal Addresses" is on. Check the Base URL in the EventPics credential: the EventPics API answers with its storage\'s https:// address.',
	stalled: `The connection to the storage stopped moving data. Run the workflow again; if the network pauses for longer than Options > "Timeout (Seconds)", raise it.`,
	deadline: `EventPics answered too slowly. Run the workflow again later, check the Base URL, or raise Options > "Timeout (Seconds)".`,
	rateLimited: `EventPics is limiting the request rate of this key. Lower "Concurrent Uploads", raise "Max Attempts" or "Max Total Wait", or run the workflow again later.`,
};
