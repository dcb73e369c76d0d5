import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ResolvedBinary } from '../../helpers/binary';
import { resolveBinary } from '../../helpers/binary';
import { openDownload } from '../../transport/download';
import type { Failure } from '../../transport/types';
import type { UploadBody } from '../../transport/upload';

/** One file to upload: from a binary field of the item or from a URL. */
export interface FileSource {
	/** The binary field's name, or the URL. */
	origin: string;
	kind: 'binary' | 'url';
	fileName?: string;
	mimeType?: string;
	size: number;
	/** n8n's binary data mode when it cannot stream the file (read whole into memory). */
	bufferedMode?: string;
	open: () => Promise<UploadBody>;
	/** Opens the file to read its start (EXIF, signature) without touching what `open` hands out. */
	inspect: () => Promise<UploadBody>;
	/** Releases what `open` did not hand out (an unread download). */
	dispose?: () => void;
}

export type SourceLookup = { ok: true; sources: FileSource[] } | { ok: false; reason: string; failure?: Failure };

/** The binary field names asked for: a comma-separated list, or every field of the item. */
export function binaryFieldNames(ctx: IExecuteFunctions, itemIndex: number, all: boolean, list: string): string[] {
	if (all) return Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	return list
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

function fromBinary(binary: ResolvedBinary): FileSource {
	return { origin: binary.propertyName, kind: 'binary', inspect: binary.open, ...binary };
}

export async function binarySources(
	ctx: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	all: boolean,
): Promise<SourceLookup> {
	if (names.length === 0) {
		return {
			ok: false,
			reason: all ? 'has no binary data' : 'names no binary field ("Input Binary Field" is empty)',
		};
	}
	const sources: FileSource[] = [];
	for (const name of names) {
		const lookup = await resolveBinary(ctx, itemIndex, name);
		if (!lookup.ok) return lookup;
		sources.push(fromBinary(lookup.binary));
	}
	return { ok: true, sources };
}

function fileNameFromUrl(url: URL): string | undefined {
	const last = url.pathname.split('/').filter((part) => part !== '').pop();
	if (!last) return undefined;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * A file behind an http(s) address, streamed into the PUT. Its size comes from Content-Length; when
 * the server gives none, the file is first stored in n8n's binary store to learn it.
 */
export async function urlSource(ctx: IExecuteFunctions, address: string): Promise<SourceLookup> {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		return { ok: false, reason: `has a File URL that is not an address: "${address}"` };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { ok: false, reason: `has a File URL that is not http(s): "${address}"` };
	}
	const first = await openDownload(ctx, url.href);
	if (!first.ok) return { ok: false, reason: `could not download "${url.href}"`, failure: first.failure };
	const download = first.value;
	const fileName = download.fileName ?? fileNameFromUrl(url);

	if (download.size === undefined) {
		const stored = await ctx.helpers.prepareBinaryData(download.stream, fileName, download.contentType);
		if (!stored.id) {
			const buffer = Buffer.from(stored.data, 'base64');
			return {
				ok: true,
				sources: [
					{
						origin: url.href,
						kind: 'url',
						fileName,
						mimeType: download.contentType,
						size: buffer.length,
						open: async () => buffer,
						inspect: async () => buffer,
					},
				],
			};
		}
		const id = stored.id;
		const metadata = await ctx.helpers.getBinaryMetadata(id);
		return {
			ok: true,
			sources: [
				{
					origin: url.href,
					kind: 'url',
					fileName,
					mimeType: download.contentType ?? metadata.mimeType,
					size: metadata.fileSize,
					open: async () => await ctx.helpers.getBinaryStream(id),
					inspect: async () => await ctx.helpers.getBinaryStream(id),
				},
			],
		};
	}

	// The first try sends the stream already open; a retry (or a look at the start) downloads again.
	let pending: typeof download.stream | undefined = download.stream;
	const size = download.size;
	const downloadAgain = async (): Promise<UploadBody> => {
		const again = await openDownload(ctx, url.href);
		if (again.ok && again.value.size === size) return again.value.stream;
		if (again.ok) again.value.stream.destroy();
		throw new NodeOperationError(ctx.getNode(), `Downloading "${url.href}" again failed`, {
			description: again.ok
				? `The file changed size between two downloads (${size} bytes, then ${again.value.size ?? 'unknown'}).`
				: again.failure.summary,
		});
	};
	const open = async (): Promise<UploadBody> => {
		if (!pending) return await downloadAgain();
		const body = pending;
		pending = undefined;
		return body;
	};
	const dispose = () => {
		pending?.destroy();
		pending = undefined;
	};
	return {
		ok: true,
		sources: [
			{ origin: url.href, kind: 'url', fileName, mimeType: download.contentType, size, open, inspect: downloadAgain, dispose },
		],
	};
}
