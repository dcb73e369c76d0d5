import type { IExecuteFunctions } from 'n8n-workflow';

import { sanitizeFileName } from '../../../helpers/fileName';
import { shown } from '../../../helpers/text';
import { parseTakenAt } from '../../../helpers/takenAt';
import { itemError, readSwitch } from '../../items';
import type { Account } from '../../account';
import { chosenEventAndAlbum } from '../../account';
import { shownUrl } from '../../../transport/download';
import type { RetryPolicy } from '../../../transport/retry';
import { retryPolicyFrom } from '../../../transport/retry';
import type { FileDetails } from './fileOutput';
import { SOURCE_ADVICE } from './advice';
import { checkedType, wantedFileName } from './fileType';
import type { FileSource } from './fileSources';
import { binaryFieldNames, binarySources, downloadLimits, urlSource } from './fileSources';
import type { UploadOptions } from './uploadOptions';
import { readUploadOptions, TIMEOUT_NAME } from './uploadOptions';

/** Where a file's Taken At comes from: its EXIF (when asked) and else the fallback. */
interface TakenAtPlan {
	exif: boolean;
	fallback: 'none' | 'now' | 'value';
	value?: number;
}

/** What one file of one item needs to be uploaded; its source may be opened only when its turn comes. */
export interface UploadJob {
	itemIndex: number;
	linkId: string;
	eventTitle: string;
	albumId?: string;
	albumTitle?: string;
	takenAt: TakenAtPlan;
	options: UploadOptions;
	/** The item's Max Attempts, Max Total Wait and Timeout, built once for all its files. */
	policy: RetryPolicy;
	/** Several files of one item: the custom Duplicate Key is told apart by the field name. */
	sharesItem: boolean;
	/** What its output item says even when it fails: event, album and where the file comes from. */
	details: FileDetails;
	source: () => Promise<FileSource>;
}

/** A File URL as the output shows it: without user name and password; null when it is no address. */
function shownAddress(address: string): string | null {
	try {
		return shownUrl(new URL(address));
	} catch {
		return null;
	}
}

function planTakenAt(ctx: IExecuteFunctions, itemIndex: number): TakenAtPlan {
	const mode = ctx.getNodeParameter('takenAtMode', itemIndex, 'exif') as string;
	const exif = mode === 'exif';
	const fallback = (
		exif ? ctx.getNodeParameter('takenAtFallback', itemIndex, 'none') : mode
	) as TakenAtPlan['fallback'];
	if (fallback !== 'value') return { exif, fallback: fallback === 'now' ? 'now' : 'none' };
	const parsed = parseTakenAt(ctx.getNodeParameter('takenAt', itemIndex, ''), ctx.getTimezone());
	if (!parsed.ok) {
		throw itemError(
			ctx,
			itemIndex,
			`Taken At Value of item ${itemIndex} cannot be read: ${parsed.reason}`,
			'Use an ISO 8601 date such as 2026-06-20T18:30:00+02:00, epoch milliseconds or seconds, or an n8n date such as {{ $now }}.',
		);
	}
	return { exif, fallback: 'value', value: parsed.value };
}

/** What every job of an item shares: where its files go, Taken At, the item's options. */
type JobBase = Omit<UploadJob, 'sharesItem' | 'details' | 'source'>;

/**
 * Reads an item's parameters and checks them (event, album, Taken At, binary fields) before any
 * upload starts. Throws a NodeOperationError naming the item and the field. `options`: the item's
 * options when the caller has read them already (item 0's are the run's).
 */
export async function itemJobs(
	ctx: IExecuteFunctions,
	account: Account,
	itemIndex: number,
	options: UploadOptions = readUploadOptions(ctx, itemIndex),
): Promise<UploadJob[]> {
	const { event, album } = await chosenEventAndAlbum(ctx, account, itemIndex);
	const base: JobBase = {
		itemIndex,
		linkId: event.linkId,
		eventTitle: event.title,
		albumId: album?.id,
		albumTitle: album?.title,
		takenAt: planTakenAt(ctx, itemIndex),
		options,
		policy: retryPolicyFrom(options, TIMEOUT_NAME),
	};
	const eventDetails: FileDetails = {
		linkId: event.linkId,
		eventTitle: event.title,
		albumId: album?.id ?? null,
		albumTitle: album?.title ?? null,
	};
	if (ctx.getNodeParameter('source', itemIndex, 'binary') === 'url')
		return [urlJob(ctx, base, eventDetails)];
	return await binaryJobs(ctx, base, eventDetails);
}

/** The one job of an item whose file comes from its File URL: downloaded when its turn comes. */
function urlJob(ctx: IExecuteFunctions, base: JobBase, eventDetails: FileDetails): UploadJob {
	const { itemIndex, options } = base;
	const address = String(ctx.getNodeParameter('fileUrl', itemIndex, '')).trim();
	if (address === '') {
		throw itemError(
			ctx,
			itemIndex,
			`Input item ${itemIndex} has no File URL`,
			SOURCE_ADVICE.fileUrl,
		);
	}
	const limits = downloadLimits(ctx, itemIndex, options);
	const origin = shownAddress(address) ?? address;
	// the download is judged by its first bytes, before n8n stores it
	const checkType = (head: Uint8Array, fileName?: string, mimeType?: string) => {
		const wanted = wantedFileName(options, fileName);
		if (wanted === '') return undefined; // refused with its own words once downloaded
		const source = { kind: 'url' as const, origin, mimeType };
		const named = checkedType(ctx.getNode(), itemIndex, options, source, wanted, head);
		return named instanceof Error ? named : undefined;
	};
	const source = async () => await urlSource(ctx, itemIndex, address, limits, checkType);
	const details = { ...eventDetails, url: shownAddress(address) };
	return { ...base, sharesItem: false, details, source };
}

/** A job for each binary field the item names (each file checked to be there and not empty). */
async function binaryJobs(
	ctx: IExecuteFunctions,
	base: JobBase,
	eventDetails: FileDetails,
): Promise<UploadJob[]> {
	const { itemIndex } = base;
	const all = readSwitch(ctx, itemIndex, 'allBinaryFields', 'Upload All Binary Fields');
	const list = all ? '' : String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
	const names = binaryFieldNames(ctx, itemIndex, all, list);
	const sources = await binarySources(ctx, itemIndex, names, all);
	const empty = sources.find((source) => source.size === 0);
	if (empty) {
		throw itemError(
			ctx,
			itemIndex,
			`The file ${empty.fileName ? `"${shown(empty.fileName)}" ` : ''}in binary field "${empty.origin}" of item ${itemIndex} is empty (0 bytes)`,
			'Check the node that produced the file: an empty file cannot be uploaded.',
		);
	}
	const sharesItem = sources.length > 1;
	return sources.map((source) => ({
		...base,
		sharesItem,
		details: {
			...eventDetails,
			binaryField: source.origin,
			fileName: sanitizeFileName(source.fileName ?? '') || null,
		},
		source: async () => source,
	}));
}
