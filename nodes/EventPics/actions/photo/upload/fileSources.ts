import type { IExecuteFunctions } from 'n8n-workflow';

import type { StoredFile } from '../../../transport/binaryStore';
import { openStored } from '../../../transport/binaryStore';
import type { DownloadLimits } from '../../../transport/download';
import { downloadToStore, shownUrl } from '../../../transport/download';
import { DEFAULT_RETRY_POLICY } from '../../../transport/retry';
import { itemError } from '../../items';
import { SOURCE_ADVICE } from './advice';
import { checkedOption, DEFAULT_MAX_FILE_SIZE_MB } from './uploadOptions';

/** One file to upload: from a binary field of the item or from a URL. */
export interface FileSource extends StoredFile {
	/** The binary field's name, or the URL. */
	origin: string;
	kind: 'binary' | 'url';
}

/** The error for an item whose file cannot be had: "Input item N <reason>", and what to do. */
function refused(ctx: IExecuteFunctions, itemIndex: number, reason: string, description: string) {
	return itemError(ctx, itemIndex, `Input item ${itemIndex} ${reason}`, description);
}

/** The binary field names asked for: a comma-separated list, or every field of the item. */
export function binaryFieldNames(
	ctx: IExecuteFunctions,
	itemIndex: number,
	all: boolean,
	list: string,
): string[] {
	if (all) return Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	return list
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

/**
 * The file in one binary field of an item: streamed from n8n's binary store when it has an id (the
 * normal case since n8n 2.0), from the inline base64 data otherwise (pinned or test data). A store
 * that cannot stream (`database`) is read once (see openStored). Throws the error naming the item
 * and the field when there is no such field, its stored file is gone, or it is too large to read.
 */
async function binarySource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
): Promise<FileSource> {
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	// own fields only: "__proto__" or "constructor" name no file
	const binary = Object.hasOwn(binaries, name) ? binaries[name] : undefined;
	if (!binary) {
		const present = Object.keys(binaries);
		const reason = present.length
			? `has no binary field "${name}" (it has: ${present.join(', ')})`
			: `has no binary data (expected a binary field "${name}")`;
		throw refused(ctx, itemIndex, reason, SOURCE_ADVICE.binaryField);
	}
	const source = { origin: name, kind: 'binary' as const, fileName: binary.fileName };
	if (!binary.id) {
		const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
		const open = async () => buffer;
		return { ...source, mimeType: binary.mimeType, size: buffer.length, open };
	}
	const { id } = binary;
	let metadata: Awaited<ReturnType<typeof ctx.helpers.getBinaryMetadata>>;
	try {
		metadata = await ctx.helpers.getBinaryMetadata(id);
	} catch {
		const reason = `has a binary field "${name}" whose stored file cannot be found in n8n's binary data (id "${id.slice(0, 200)}"); it may have been deleted or come from another n8n instance`;
		throw refused(ctx, itemIndex, reason, SOURCE_ADVICE.rerun);
	}
	const readWhole = async () => await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	const stored = openStored(ctx, id, metadata.fileSize, readWhole);
	if (!stored.ok) {
		const message = `The file in binary field "${name}" of item ${itemIndex} (${stored.tooLarge}) is too large to read from n8n's database`;
		throw itemError(ctx, itemIndex, message, stored.advice);
	}
	return {
		...source,
		fileName: binary.fileName ?? metadata.fileName,
		mimeType: binary.mimeType || metadata.mimeType,
		size: metadata.fileSize,
		...stored.reader,
	};
}

/** The files of the binary fields an item names, each checked to be there; an error otherwise. */
export async function binarySources(
	ctx: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	all: boolean,
): Promise<FileSource[]> {
	if (names.length === 0) {
		const reason = all
			? 'has no binary data'
			: 'names no binary field ("Input Binary Field" is empty)';
		throw refused(ctx, itemIndex, reason, SOURCE_ADVICE.binaryField);
	}
	const sources: FileSource[] = [];
	for (const name of names) sources.push(await binarySource(ctx, itemIndex, name));
	return sources;
}

/** The URL source's limits from the options (Timeout already checked), checked whatever an expression produced. */
export function downloadLimits(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: { allowInternalAddresses?: unknown; maxFileSizeMb?: unknown; timeoutSeconds?: number },
): DownloadLimits {
	const megabytes = options.maxFileSizeMb ?? DEFAULT_MAX_FILE_SIZE_MB;
	return {
		allowInternal: options.allowInternalAddresses === true,
		maxBytes: Math.floor(checkedOption(ctx, itemIndex, 'maxFileSizeMb', megabytes) * 1024 * 1024),
		timeoutMs:
			options.timeoutSeconds === undefined
				? DEFAULT_RETRY_POLICY.timeoutMs
				: options.timeoutSeconds * 1000,
	};
}

function fileNameFromUrl(url: URL): string | undefined {
	const last = url.pathname
		.split('/')
		.filter((part) => part !== '')
		.pop();
	if (!last) return undefined;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * A file behind an http(s) address, downloaded once into n8n's binary store (every redirect hop
 * checked, at most `limits.maxBytes`); the look at its start, its content hash and every try of the
 * PUT then read that one stored copy. Throws the error naming the item when the file cannot be had.
 */
export async function urlSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	address: string,
	limits: DownloadLimits,
	checkType?: (head: Uint8Array, fileName?: string, mimeType?: string) => Error | undefined,
): Promise<FileSource> {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		const reason = `has a File URL that is not an address: "${address}"`;
		throw refused(ctx, itemIndex, reason, SOURCE_ADVICE.fileUrl);
	}
	const checkHead: DownloadLimits['checkHead'] =
		checkType &&
		((head, file) =>
			checkType(
				head,
				file.fileName ?? fileNameFromUrl(url) ?? fileNameFromUrl(file.url),
				file.contentType,
			));
	const downloaded = await downloadToStore(ctx, url, { ...limits, checkHead });
	if (!downloaded.ok) {
		const { reason, description } = downloaded.refusal;
		throw refused(ctx, itemIndex, reason, description);
	}
	const { binary, finalUrl, size, contentType, fileName } = downloaded.value;
	const name = fileName ?? fileNameFromUrl(url) ?? fileNameFromUrl(new URL(finalUrl));
	if (size === 0) {
		const reason = `has a File URL whose file is empty (0 bytes): "${shownUrl(url)}"`;
		throw refused(ctx, itemIndex, reason, 'Check the File URL: an empty file cannot be uploaded.');
	}
	const source = { origin: shownUrl(url), kind: 'url' as const, fileName: name, size };
	if (!binary.id) {
		const buffer = Buffer.from(binary.data, 'base64');
		return { ...source, mimeType: contentType, open: async () => buffer };
	}
	const { id } = binary;
	const readWhole = async () =>
		await ctx.helpers.binaryToBuffer(await ctx.helpers.getBinaryStream(id));
	const stored = openStored(ctx, id, size, readWhole);
	if (!stored.ok) {
		const reason = `has a File URL whose file (${stored.tooLarge}) is too large to read back from n8n's database: "${shownUrl(url)}"`;
		throw refused(ctx, itemIndex, reason, stored.advice);
	}
	return { ...source, mimeType: contentType, ...stored.reader };
}
