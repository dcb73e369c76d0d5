import { extensionOf } from './fileName';
import { extensionForMediaType, lookupMediaType } from './mediaTypeTable';
import { isTextualType, sniffNotMedia, sniffText } from './contentLook';
import { CHECKABLE_TYPES, contentMismatch, sniffMediaType } from './sniff';
import { shown } from './text';

const OCTET_STREAM = 'application/octet-stream';

type NamedFile =
	{ ok: true; fileName: string; contentType: string } | { ok: false; reason: string };

/**
 * Gives the file name an extension (from the binary's MIME type when it has none) and derives the
 * PUT's Content-Type from that name with the same table as mime-types, because the upload address
 * is signed for the type that follows from the name sent to getuploadurl.
 */
function nameAndContentType(
	fileName: string,
	binaryMimeType: string | undefined,
	allowUnknown: boolean,
): NamedFile {
	let name = fileName;
	if (extensionOf(name) === '') {
		const extension = binaryMimeType ? extensionForMediaType(binaryMimeType) : false;
		if (extension) name = `${name}.${extension}`;
	}
	const contentType = lookupMediaType(name);
	if (contentType) return { ok: true, fileName: name, contentType };
	if (allowUnknown) return { ok: true, fileName: name, contentType: OCTET_STREAM };
	const extension = extensionOf(name);
	return {
		ok: false,
		reason: extension
			? `the extension ".${extension}" of "${name}" has no known media type`
			: `"${name}" has no extension and the binary's MIME type (${shown(binaryMimeType ?? 'none')}) gives none`,
	};
}

/** MIME types that say nothing about a file (n8n gives text/plain to a file without extension). */
const GENERIC_TYPES = new Set([
	'',
	'text/plain',
	'application/octet-stream',
	'binary/octet-stream',
]);

export function isGenericMediaType(mimeType: string | undefined): boolean {
	return GENERIC_TYPES.has(mimeType?.split(';')[0].trim().toLowerCase() ?? '');
}

/** Longest MIME type read: a type and subtype are at most 127 characters each (RFC 6838). */
const MAX_MEDIA_TYPE_LENGTH = 1000;

/** The binary's MIME type, or undefined when it is too long to be one (it then says nothing). */
function readableMediaType(mimeType: string | undefined): string | undefined {
	return mimeType !== undefined && mimeType.length <= MAX_MEDIA_TYPE_LENGTH ? mimeType : undefined;
}

/** What an event album holds: photos and videos, not markup such as SVG (image/svg+xml). */
function isPhotoOrVideo(contentType: string): boolean {
	const media = contentType.startsWith('image/') || contentType.startsWith('video/');
	return media && !isTextualType(contentType);
}

interface TypeRules {
	/** File Types "Photos, Videos and Unknown Types" (or "Any File"): send what cannot be told as octet-stream. */
	allowUnknown: boolean;
	/** File Types "Any File": no refusal by type or content. */
	allowOther: boolean;
}

export type TypeDecision =
	| { ok: true; fileName: string; contentType: string; fromContent?: string; warnings: string[] }
	| { ok: false; kind: 'unknown' | 'notMedia' | 'text' | 'unrecognised'; reason: string };

/**
 * Why an album should not get this file (a type neither photo nor video, octet-stream without
 * unknown types allowed, text or other content under a media name, a media type the node can check
 * whose bytes are no format it knows), or undefined. A binary field and a download are judged alike.
 */
function refusalOf(
	fileName: string,
	contentType: string,
	head: Uint8Array,
	rules: TypeRules,
): Extract<TypeDecision, { ok: false }> | undefined {
	const octet = contentType === OCTET_STREAM;
	const sentAs = `"${fileName}" would be sent as ${contentType}`;
	if ((octet && !rules.allowUnknown) || (!octet && !isPhotoOrVideo(contentType))) {
		const drawing = /^(image|video)\//.test(contentType) && isTextualType(contentType);
		const markup = drawing ? ', markup that can carry scripts,' : ',';
		return {
			ok: false,
			kind: 'notMedia',
			reason: `${sentAs}${markup} which is neither a photo nor a video`,
		};
	}
	const text = sniffText(head);
	if (text) {
		return {
			ok: false,
			kind: 'text',
			reason: `${sentAs}, but its content is ${text}, not a photo or video`,
		};
	}
	const other = sniffNotMedia(head);
	if (other) {
		const reason = `${sentAs}, but its content is ${other}, not a photo or video`;
		return { ok: false, kind: 'notMedia', reason };
	}
	if (CHECKABLE_TYPES.has(contentType) && !sniffMediaType(head)) {
		const reason = `${sentAs}, but its first bytes are no photo or video format the node knows`;
		return { ok: false, kind: 'unrecognised', reason };
	}
	return undefined;
}

/**
 * The name and Content-Type a file is sent with, from its name, its binary's MIME type and its first
 * bytes: a name without extension whose MIME type says nothing is named from its content (JPEG, HEIC,
 * MP4, ...). Refuses what an album should not get unless allowed: a type that is neither a photo nor
 * a video, octet-stream without unknown types allowed, text or HTML sent as a photo.
 */
export function decideType(
	fileName: string,
	givenMimeType: string | undefined,
	head: Uint8Array,
	rules: TypeRules,
): TypeDecision {
	const binaryMimeType = readableMediaType(givenMimeType);
	let name = fileName;
	let fromContent: string | undefined;
	const warnings: string[] = [];
	if (extensionOf(name) === '' && isGenericMediaType(binaryMimeType)) {
		const sniffed = sniffMediaType(head);
		if (sniffed) {
			name = `${name}.${sniffed.extension}`;
			fromContent = sniffed.label;
		}
	}
	const named = nameAndContentType(
		name,
		fromContent ? undefined : binaryMimeType,
		rules.allowUnknown,
	);
	if (!named.ok) return { ok: false, kind: 'unknown', reason: named.reason };
	const { contentType } = named;
	if (fromContent) {
		warnings.push(
			`Type identified from content: ${fromContent}. "${fileName}" has no extension and its MIME type (${shown(binaryMimeType || 'none')}) says nothing, so it is sent as "${named.fileName}" (${contentType}).`,
		);
	}
	if (!rules.allowOther) {
		const refusal = refusalOf(named.fileName, contentType, head, rules);
		if (refusal) return refusal;
	}
	const mismatch = contentMismatch(head, contentType, named.fileName);
	if (mismatch) warnings.push(mismatch);
	return { ok: true, fileName: named.fileName, contentType, fromContent, warnings };
}
