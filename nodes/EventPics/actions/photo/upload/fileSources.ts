import type { IExecuteFunctions } from 'n8n-workflow';

import type { BinaryLookup, ResolvedBinary, StoredFile } from '../../../transport/binaryStore';
import { openStored, resolveBinary } from '../../../transport/binaryStore';
import type { DownloadLimits } from '../../../transport/download';
import { downloadToStore, shownUrl } from '../../../transport/download';
import { DEFAULT_RETRY_POLICY } from '../../../transport/retry';
import type { SourceFix } from './advice';
import { SOURCE_ADVICE } from './advice';
import { checkedOption, DEFAULT_MAX_FILE_SIZE_MB } from './uploadOptions';

/** One file to upload: from a binary field of the item or from a URL. */
export interface FileSource extends StoredFile {
	/** The binary field's name, or the URL. */
	origin: string;
	kind: 'binary' | 'url';
}

/** The files of an item, or why there are none: the error's message and what to do. */
type SourceLookup =
	{ ok: true; sources: FileSource[] } | { ok: false; message: string; description: string };

const refused = (itemIndex: number, reason: string, fix: SourceFix | { description: string }) => ({
	ok: false as const,
	message: `Input item ${itemIndex} ${reason}`,
	description: typeof fix === 'string' ? SOURCE_ADVICE[fix] : fix.description,
});

/** The words for a binary field that cannot be read. */
function binaryRefusal(
	itemIndex: number,
	name: string,
	lookup: Extract<BinaryLookup, { ok: false }>,
): SourceLookup {
	if (lookup.problem === 'noField') {
		const reason = lookup.present.length
			? `has no binary field "${name}" (it has: ${lookup.present.join(', ')})`
			: `has no binary data (expected a binary field "${name}")`;
		return refused(itemIndex, reason, 'binaryField');
	}
	if (lookup.problem === 'notStored') {
		const reason = `has a binary field "${name}" whose stored file cannot be found in n8n's binary data (id "${lookup.id.slice(0, 200)}"); it may have been deleted or come from another n8n instance`;
		return refused(itemIndex, reason, 'rerun');
	}
	return {
		ok: false,
		message: `The file in binary field "${name}" of item ${itemIndex} (${lookup.size}) is too large to read from n8n's database`,
		description: lookup.advice,
	};
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

function fromBinary(binary: ResolvedBinary): FileSource {
	return { origin: binary.propertyName, kind: 'binary', ...binary };
}

export async function binarySources(
	ctx: IExecuteFunctions,
	itemIndex: number,
	names: string[],
	all: boolean,
): Promise<SourceLookup> {
	if (names.length === 0) {
		const reason = all
			? 'has no binary data'
			: 'names no binary field ("Input Binary Field" is empty)';
		return refused(itemIndex, reason, 'binaryField');
	}
	const sources: FileSource[] = [];
	for (const name of names) {
		const lookup = await resolveBinary(ctx, itemIndex, name);
		if (!lookup.ok) return binaryRefusal(itemIndex, name, lookup);
		sources.push(fromBinary(lookup.binary));
	}
	return { ok: true, sources };
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
 * PUT then read that one stored copy.
 */
export async function urlSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	address: string,
	limits: DownloadLimits,
	checkType?: (head: Uint8Array, fileName?: string, mimeType?: string) => Error | undefined,
): Promise<SourceLookup> {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		return refused(itemIndex, `has a File URL that is not an address: "${address}"`, 'fileUrl');
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
		return refused(itemIndex, reason, { description });
	}
	const { binary, finalUrl, size, contentType, fileName } = downloaded.value;
	const name = fileName ?? fileNameFromUrl(url) ?? fileNameFromUrl(new URL(finalUrl));
	if (size === 0) {
		return refused(itemIndex, `has a File URL whose file is empty (0 bytes): "${shownUrl(url)}"`, {
			description: 'Check the File URL: an empty file cannot be uploaded.',
		});
	}
	const common = {
		origin: shownUrl(url),
		kind: 'url' as const,
		fileName: name,
		mimeType: contentType,
		size,
	};
	if (!binary.id) {
		const buffer = Buffer.from(binary.data, 'base64');
		return { ok: true, sources: [{ ...common, open: async () => buffer }] };
	}
	const { id } = binary;
	const stored = openStored(
		ctx,
		id,
		size,
		async () => await ctx.helpers.binaryToBuffer(await ctx.helpers.getBinaryStream(id)),
	);
	if (!stored.ok) {
		const reason = `has a File URL whose file (${stored.tooLarge}) is too large to read back from n8n's database: "${shownUrl(url)}"`;
		return refused(itemIndex, reason, { description: stored.advice });
	}
	return { ok: true, sources: [{ ...common, ...stored.reader }] };
}
