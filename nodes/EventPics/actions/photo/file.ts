import { createHash } from 'node:crypto';

import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ExifCaptureTime } from '../../helpers/exif';
import { readCaptureTime, toEpochMs } from '../../helpers/exif';
import { fileNameFromUrl, sanitizeFileName } from '../../helpers/fileName';
import type { TypeDecision } from '../../helpers/media';
import { decideType } from '../../helpers/media';
import { isoInZone } from '../../helpers/takenAt';
import { shown, shownSize } from '../../helpers/text';
import { wholenessCheck } from '../../helpers/wholeness';
import { shownUrl, startDownload } from '../../transport/download';
import type { Body } from '../../transport/upload';
import type { UploadOptions } from '../options';
import type { FileDetails } from '../output';

/** One file of one item to upload; `details`: what its output says even when it fails. */
export interface FileJob {
	itemIndex: number;
	linkId: string;
	albumId?: string;
	options: UploadOptions;
	from: { field: string } | { url: string };
	details: FileDetails;
}

/**
 * n8n's `database` binary data mode reads a whole file whatever is asked, and on Postgres (queue
 * mode) cannot hand back more than this: its driver turns the bytes into hex text, and Node's
 * strings end at 512 Mi characters. Just under 256 MiB.
 */
export const DATABASE_READ_LIMIT = Math.floor((0x1fffffe8 - 2) / 2);
const DATABASE_ADVICE = `n8n keeps binary data in its database (binary data mode "database", the default in queue mode) and cannot read a file over ${shownSize(DATABASE_READ_LIMIT)} back from Postgres: the attempt fails inside the database driver and leaves the execution hanging, so the file was not read. For files this large set N8N_DEFAULT_BINARY_DATA_MODE to "filesystem" on a folder that main and workers share (N8N_BINARY_DATA_STORAGE_PATH), or "s3" where licensed.`;
/** Files the node reads first (its start, EXIF, wholeness, hash) and keeps of it: the first MiB. */
const HEAD_BYTES = 1024 * 1024;

const refuse = (ctx: IExecuteFunctions, itemIndex: number, message: string, description: string) =>
	new NodeOperationError(ctx.getNode(), message, { description, itemIndex });

const ANY = 'set Options > "File Types" to "Any File"';
const TYPE_ADVICE: Record<Extract<TypeDecision, { ok: false }>['kind'], string> = {
	unknown:
		'Give the file a name with a known extension in Options > "File Name", or set Options > "File Types" to "Photos, Videos and Unknown Types" to send it as a file of unknown type.',
	notMedia: `An event album holds photos and videos. Give the file its right extension in Options > "File Name", or ${ANY} to upload it anyway.`,
	text: `This is usually an error or login page instead of the file. Check the address or binary field; to upload the file anyway, ${ANY}.`,
	unrecognised: `A file named as a photo or video must be one the node can recognise (JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF, BMP, MP4, QuickTime, AVI, WebM, Matroska, MPEG). Check the file or its address; to upload it anyway, ${ANY}.`,
};

/** How a stored file is read: streamed where n8n's binary data mode streams, else whole once (`database`). */
function storedSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	stored: { binary: IBinaryData; size: number },
	tooLarge: (size: string) => string,
) {
	const { binary, size } = stored;
	if (!binary.id) {
		const buffer = Buffer.from(binary.data, 'base64');
		return {
			size: buffer.length,
			open: async (): Promise<Body> => buffer,
			release: () => undefined,
		};
	}
	const id = binary.id;
	const mode = id.startsWith('database:') ? 'database' : undefined;
	if (mode && size > DATABASE_READ_LIMIT)
		throw refuse(ctx, itemIndex, tooLarge(shownSize(size)), DATABASE_ADVICE);
	let whole: Promise<Buffer> | undefined;
	const stream = async () => await ctx.helpers.getBinaryStream(id);
	const open = mode
		? async () =>
				await (whole ??= stream().then(async (body) => await ctx.helpers.binaryToBuffer(body)))
		: stream;
	return { size, mode, open, release: () => void (whole = undefined) };
}

/** What one read of the whole file finds: its head (of a JPEG, its metadata only), wholeness, hash. */
export async function readOnce(body: Body, hashed: boolean) {
	const check = wholenessCheck();
	const hash = hashed ? createHash('sha256') : undefined;
	if (Buffer.isBuffer(body)) {
		check.push(body);
		return { head: body, whole: check.verdict(body), hash: hash?.update(body).digest('hex') };
	}
	const kept: Buffer[] = [];
	let keptBytes = 0;
	try {
		for await (const chunk of body) {
			const bytes = chunk as Buffer;
			check.push(bytes);
			hash?.update(bytes);
			// a JPEG's metadata usually ends in the first chunk: then no MiB is copied (a fresh MiB
			// per file cost some 2 ms, as much as the read itself)
			const wanted = Math.min(HEAD_BYTES, check.headBytes());
			if (keptBytes < wanted)
				keptBytes += kept[kept.push(bytes.subarray(0, wanted - keptBytes)) - 1].length;
		}
	} finally {
		if (!body.destroyed) body.destroy();
	}
	const head = kept.length === 1 ? kept[0] : Buffer.concat(kept);
	return { head, whole: check.verdict(head), hash: hash?.digest('hex') };
}

/** A binary field of the item, or the error naming the fields it has: own fields only ("__proto__" names no file). */
export function itemBinary(ctx: IExecuteFunctions, itemIndex: number, field: string): IBinaryData {
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const binary = Object.hasOwn(binaries, field) ? binaries[field] : undefined;
	if (binary) return binary;
	const present = Object.keys(binaries);
	const message = present.length
		? `The item has no binary field "${shown(field)}" (it has: ${shown(present.join(', '))})`
		: `The item has no binary data (expected a binary field "${shown(field)}")`;
	throw refuse(
		ctx,
		itemIndex,
		message,
		'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
	);
}

/** Where a file's bytes are, and what its source says of it: a downloaded file's name and type were decided from its first bytes before it was stored. */
type Source = ReturnType<typeof storedSource> & {
	name?: string;
	mimeType?: string;
	type?: Extract<TypeDecision, { ok: true }>;
};

/** A binary field's stored file, checked to be there, readable and not empty. */
async function binaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
): Promise<Source> {
	const binary = itemBinary(ctx, itemIndex, field);
	const { id } = binary;
	const metadata = id
		? await ctx.helpers.getBinaryMetadata(id).catch(() => {
				const message = `The stored file of binary field "${shown(field)}" cannot be found in n8n's binary data (id "${id.slice(0, 200)}"); it may have been deleted or come from another n8n instance`;
				throw refuse(
					ctx,
					itemIndex,
					message,
					'Run the node that produced the file again in this workflow, so that its file is stored anew.',
				);
			})
		: undefined;
	const tooLarge = (size: string) =>
		`The file in binary field "${shown(field)}" (${size}) is too large to read from n8n's database`;
	const source = storedSource(ctx, itemIndex, { binary, size: metadata?.fileSize ?? 0 }, tooLarge);
	const name = binary.fileName ?? metadata?.fileName;
	if (source.size === 0)
		throw refuse(
			ctx,
			itemIndex,
			`The file ${name ? `"${shown(name)}" ` : ''}in binary field "${shown(field)}" is empty (0 bytes)`,
			'Check the node that produced the file: an empty file cannot be uploaded.',
		);
	return { ...source, name, mimeType: binary.mimeType || metadata?.mimeType };
}

/** An address as a message may show it when it is none: user information removed, cut. */
const shownText = (text: string) => shown(text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1'));

/** A File URL's file, downloaded once; its first bytes decide its name and type before it is stored. */
async function urlFile(ctx: IExecuteFunctions, job: FileJob, address: string): Promise<Source> {
	const { itemIndex, options } = job;
	if (!URL.canParse(address))
		throw refuse(
			ctx,
			itemIndex,
			`The File URL is not an address: "${shownText(address)}"`,
			'Set "File URL" to the http(s) address of the file.',
		);
	const url = new URL(address);
	const { allowInternal, maxBytes, policy } = options;
	const limits = { allowInternal, maxBytes, timeoutMs: policy.timeoutMs };
	const download = await startDownload(ctx, url, limits);
	const name =
		options.fileName ||
		download.fileName ||
		fileNameFromUrl(url) ||
		fileNameFromUrl(download.finalUrl);
	const from = `the File URL "${shownUrl(url)}"`;
	// a refused file is never stored; an empty one is refused as such once its end is known
	const type = await Promise.resolve()
		.then(() => {
			if (!name) throw unnamed(ctx, itemIndex, 'the URL');
			const { head, contentType } = download;
			return head.length
				? decided(ctx, itemIndex, from, name, contentType, head, options)
				: undefined;
		})
		.catch((error: unknown) => {
			download.cancel();
			throw error;
		});
	const { binary, size } = await download.store(name);
	if (!type || size === 0)
		throw refuse(
			ctx,
			itemIndex,
			`The file of the File URL is empty (0 bytes): ${shownUrl(url)}`,
			'Check the File URL: an empty file cannot be uploaded.',
		);
	const tooLarge = (shownAt: string) =>
		`The file of the File URL (${shownAt}) is too large to read from n8n's database: ${shownUrl(url)}`;
	return { ...storedSource(ctx, itemIndex, { binary, size }, tooLarge), type };
}

const unnamed = (ctx: IExecuteFunctions, itemIndex: number, from: string) =>
	refuse(
		ctx,
		itemIndex,
		`The file from ${from} has no file name`,
		'Set a name in Options > "File Name", for example {{ $json.name }}.jpg.',
	);

/** The name and type the file is sent with, or the error that refuses it. */
function decided(
	ctx: IExecuteFunctions,
	itemIndex: number,
	from: string,
	name: string,
	mimeType: string | undefined,
	head: Uint8Array,
	options: UploadOptions,
) {
	const type = decideType(sanitizeFileName(name), mimeType, head, options.types);
	if (type.ok) return type;
	const message =
		type.kind === 'unknown'
			? `Cannot tell the media type of the file: ${type.reason}`
			: `The file from ${from} is refused: ${type.reason}`;
	throw refuse(ctx, itemIndex, message, TYPE_ADVICE[type.kind]);
}

/** Taken At: the photo's EXIF capture time when asked and found, else the item's fallback. */
function takenAtOf(ctx: IExecuteFunctions, job: FileJob, head: Uint8Array) {
	const plan = job.options.takenAt;
	const exif: ExifCaptureTime | undefined = plan.exif ? readCaptureTime(head) : undefined;
	const fromExif = exif && toEpochMs(exif, ctx.getTimezone());
	if (fromExif !== undefined) return { ms: fromExif, source: 'exif', tag: exif!.tag };
	if (plan.fallback === 'now') return { ms: Date.now(), source: 'now' };
	if (plan.fallback === 'value' && plan.value !== undefined)
		return { ms: plan.value, source: 'value' };
	return { ms: undefined, source: null };
}

/** What the output warns of a file's source: a MIME type its name contradicts, a large file held in memory. */
function sourceWarnings(source: Source, type: Extract<TypeDecision, { ok: true }>): string[] {
	const warnings: string[] = [];
	const own = source.mimeType?.slice(0, 1000).split(';')[0].trim().toLowerCase();
	if (own && !type.fromContent && own !== 'application/octet-stream' && own !== type.contentType)
		warnings.push(
			`"${type.fileName}" is sent as ${type.contentType} (from its name), but the binary's MIME type is ${shown(own)}.`,
		);
	if (source.mode && source.size >= 64 * 1024 * 1024)
		warnings.push(
			`n8n's binary data mode "${source.mode}" (the default in queue mode) cannot stream: this file (${shownSize(source.size)}) was held whole in memory while it was uploaded, once for every file uploaded at the same time. For large files use the "filesystem" mode on a folder that main and workers share (N8N_BINARY_DATA_STORAGE_PATH), or "s3" where licensed.`,
		);
	return warnings;
}

/**
 * Decides one file, once: its source, name and media type, Taken At, wholeness, hash when asked and
 * warnings, all from one read of the file; the upload then reads it again, streamed.
 */
export async function decideFile(ctx: IExecuteFunctions, job: FileJob, hashed: boolean) {
	const { itemIndex, options } = job;
	const source =
		'url' in job.from
			? await urlFile(ctx, job, job.from.url)
			: await binaryFile(ctx, itemIndex, job.from.field);
	const read = await readOnce(await source.open(), hashed);
	const from = `binary field "${shown('field' in job.from ? job.from.field : '')}"`;
	const name = options.fileName || source.name || '';
	if (!source.type && sanitizeFileName(name) === '') throw unnamed(ctx, itemIndex, from);
	const type =
		source.type ?? decided(ctx, itemIndex, from, name, source.mimeType, read.head, options);
	const warnings = [...type.warnings, ...sourceWarnings(source, type)];
	const takenAt = takenAtOf(ctx, job, read.head);
	const details: FileDetails = {
		...job.details,
		fileName: type.fileName,
		contentType: type.contentType,
		bytes: source.size,
		takenAt: takenAt.ms === undefined ? null : isoInZone(takenAt.ms, ctx.getTimezone()),
		takenAtMs: takenAt.ms ?? null,
		takenAtSource: takenAt.source,
		exifTag: takenAt.tag ?? null,
		typeFromContent: type.fromContent ?? null,
		whole: read.whole.whole ?? null,
		binaryDataMode: source.mode ?? null,
		warnings,
	};
	// what is sent and how to read it; `release` lets go of a file read whole (database mode)
	return {
		linkId: job.linkId,
		albumId: job.albumId,
		fileName: type.fileName,
		takenAt: takenAt.ms,
		contentType: type.contentType,
		size: source.size,
		open: source.open,
		release: source.release,
		details,
		whole: read.whole,
		hash: read.hash,
	};
}

/** A file decided once: what is sent and how to read it, what its output says, its content hash when asked. */
export type Decided = Awaited<ReturnType<typeof decideFile>>;
