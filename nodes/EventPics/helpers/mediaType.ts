import { extensionOf } from './fileName';
import { extensionForMediaType, lookupMediaType } from './mediaTypes.generated';

export const OCTET_STREAM = 'application/octet-stream';

export type NamedFile =
	| { ok: true; fileName: string; contentType: string; extensionAdded: boolean }
	| { ok: false; reason: string };

/**
 * Gives the file name an extension (from the binary's MIME type when it has none) and derives the
 * PUT's Content-Type from that name with the same table as mime-types, because the upload address
 * is signed for the type that follows from the name sent to getuploadurl.
 */
export function nameAndContentType(
	fileName: string,
	binaryMimeType: string | undefined,
	allowUnknown: boolean,
): NamedFile {
	let name = fileName;
	let extensionAdded = false;
	if (extensionOf(name) === '') {
		const extension = binaryMimeType ? extensionForMediaType(binaryMimeType) : false;
		if (extension) {
			name = `${name}.${extension}`;
			extensionAdded = true;
		}
	}
	const contentType = lookupMediaType(name);
	if (contentType) return { ok: true, fileName: name, contentType, extensionAdded };
	if (allowUnknown) return { ok: true, fileName: name, contentType: OCTET_STREAM, extensionAdded };
	const extension = extensionOf(name);
	return {
		ok: false,
		reason: extension
			? `the extension ".${extension}" of "${name}" has no known media type`
			: `"${name}" has no extension and the binary's MIME type (${binaryMimeType ?? 'none'}) gives none`,
	};
}
