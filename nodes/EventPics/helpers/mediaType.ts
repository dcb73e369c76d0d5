import { extensionOf } from './fileName';
import { extensionForMediaType, lookupMediaType } from './mediaTypeTable';
import { contentMismatch, isTextualType, sniffMediaType, sniffText } from './sniff';

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
			: `"${name}" has no extension and the binary's MIME type (${binaryMimeType ?? 'none'}) gives none`,
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

/** What an event album holds: photos and videos. */
function isPhotoOrVideo(contentType: string): boolean {
	return contentType.startsWith('image/') || contentType.startsWith('video/');
}

export interface TypeRules {
	/** Option "Allow Unknown Types": send what cannot be told as octet-stream. */
	allowUnknown: boolean;
	/** Option "Allow Any File Type". */
	allowOther: boolean;
}

export type TypeDecision =
	| { ok: true; fileName: string; contentType: string; fromContent?: string; warnings: string[] }
	| { ok: false; kind: 'unknown' | 'notMedia' | 'text'; reason: string };

/**
 * The name and Content-Type a file is sent with, from its name, its binary's MIME type and its first
 * bytes: a name without extension whose MIME type says nothing is named from its content (JPEG, HEIC,
 * MP4, ...). Refuses what an album should not get unless allowed: a type that is neither a photo nor
 * a video, octet-stream without "Allow Unknown Types", text or HTML sent as a photo.
 */
export function decideType(
	fileName: string,
	binaryMimeType: string | undefined,
	head: Uint8Array,
	rules: TypeRules,
): TypeDecision {
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
			`Type identified from content: ${fromContent}. "${fileName}" has no extension and its MIME type (${binaryMimeType || 'none'}) says nothing, so it is sent as "${named.fileName}" (${contentType}).`,
		);
	}
	if (!rules.allowOther) {
		const octet = contentType === OCTET_STREAM;
		if ((octet && !rules.allowUnknown) || (!octet && !isPhotoOrVideo(contentType))) {
			return {
				ok: false,
				kind: 'notMedia',
				reason: `"${named.fileName}" would be sent as ${contentType}, which is neither a photo nor a video`,
			};
		}
		const text = isTextualType(contentType) ? undefined : sniffText(head);
		if (text) {
			return {
				ok: false,
				kind: 'text',
				reason: `"${named.fileName}" would be sent as ${contentType}, but its content is ${text}, not a photo or video`,
			};
		}
	}
	const mismatch = contentMismatch(head, contentType, named.fileName);
	if (mismatch) warnings.push(mismatch);
	return { ok: true, fileName: named.fileName, contentType, fromContent, warnings };
}
