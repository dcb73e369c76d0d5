import type { IExecuteFunctions } from 'n8n-workflow';

import { checkNumber, NUMBER_RULES, rangeText } from '../../../helpers/numberOption';
import type { OptionText } from '../../../helpers/optionText';
import { duplicateKeyText, fileNameText } from '../../../helpers/optionText';
import { itemError } from '../../items';

/**
 * Concurrency: "Concurrent Uploads" 0 (the value the option shows when added) or the option left
 * out is automatic: the node starts with START_CONCURRENCY and may grow to AUTO_MAX_CONCURRENCY
 * while the answers stay good. 1 to AUTO_MAX_CONCURRENCY runs that many from the start (fewer for
 * a while after the first 429).
 */
export const AUTO_MAX_CONCURRENCY = 64;
export const AUTOMATIC_CONCURRENCY = 0;
const START_CONCURRENCY = 4;

/** The uploads at once: automatic (0 or no option) from a few up to many, or that many from the start. */
export function concurrencyOf(options: UploadOptions): { max: number; start?: number } {
	const concurrency = options.concurrency ?? AUTOMATIC_CONCURRENCY;
	return concurrency === AUTOMATIC_CONCURRENCY
		? { max: AUTO_MAX_CONCURRENCY, start: START_CONCURRENCY }
		: { max: concurrency };
}

/**
 * Options > File Types: what the node uploads, as the list shows it and messages name it. Photos and
 * videos only (the default); also files whose type cannot be told (camera RAW, unknown extensions),
 * sent as application/octet-stream, the content checks kept; or any file, without the checks.
 */
export const FILE_TYPES = {
	media: 'Photos and Videos',
	unknown: 'Photos, Videos and Unknown Types',
	any: 'Any File',
} as const;

/** Timeout (Seconds), as messages name it: "did not finish within 1 s (Timeout)". */
export const TIMEOUT_NAME = 'Timeout';

/** Max File Size (MB) of the URL source when the option is not added. */
export const DEFAULT_MAX_FILE_SIZE_MB = 1024;

/** What identifies a file for Skip Files Uploaded Before: its content, or a File ID from the item. */
export type SkipBy = { by: 'content' } | { by: 'fileId'; fileId: string };

export interface UploadOptions {
	fileName?: string;
	/** Options > File Types; none added is "media". */
	fileTypes?: keyof typeof FILE_TYPES;
	maxAttempts?: number;
	maxTotalWaitSeconds?: number;
	timeoutSeconds?: number;
	concurrency?: number;
	/** Skip Files Uploaded Before: off (absent), or how files are told apart. */
	skip?: SkipBy;
	allowInternalAddresses?: boolean;
	maxFileSizeMb?: number;
}

/**
 * One numeric option of the item, checked whatever an expression made of it (NaN, 0, -1, 2.5,
 * 1000, text): an error names the option, the value, the allowed range and the item.
 */
export function checkedOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: keyof typeof NUMBER_RULES,
	value: unknown,
): number {
	const rule = NUMBER_RULES[name];
	const check = checkNumber(value, rule);
	if (check.ok) return check.value;
	throw itemError(
		ctx,
		itemIndex,
		`Option ${check.reason} (item ${itemIndex})`,
		`Set Options > "${rule.label}" to ${rangeText(rule)}; when it is an expression, check what it gives for this item.`,
	);
}

/** A text option as text, whatever an expression gave (helpers/optionText.ts), or an error naming it. */
function checkedText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	read: OptionText,
): string {
	if (read.ok) return read.text;
	throw itemError(
		ctx,
		itemIndex,
		`Option "${label}" of item ${itemIndex} ${read.reason}`,
		label === 'File Name'
			? 'Set Options > "File Name" to text, for example {{ $json.name }}.jpg; when it is an expression, check what it gives for this item.'
			: 'Set its "File ID" to text, a number or an object (compared as JSON), for example {{ $json.id }}.',
	);
}

const NUMBER_OPTIONS = [
	'concurrency',
	'maxAttempts',
	'maxTotalWaitSeconds',
	'timeoutSeconds',
] as const;

const SKIP_LABEL = 'Skip Files Uploaded Before';

/**
 * Options > Skip Files Uploaded Before, as the editor stores it (`{ settings: { identifyBy,
 * fileId } }`): off when not added, else by content or by a File ID that must not be empty.
 */
function skipOf(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): SkipBy | undefined {
	const settings = (raw as { settings?: { identifyBy?: unknown; fileId?: unknown } } | undefined)
		?.settings;
	if (!settings) return undefined;
	if (settings.identifyBy !== 'fileId') return { by: 'content' };
	const fileId = checkedText(
		ctx,
		itemIndex,
		`${SKIP_LABEL} > File ID`,
		duplicateKeyText(settings.fileId),
	);
	if (fileId !== '') return { by: 'fileId', fileId };
	throw itemError(
		ctx,
		itemIndex,
		`Option "${SKIP_LABEL}" identifies files by File ID, but the File ID of item ${itemIndex} is empty`,
		'Set its "File ID" to a value that tells files apart, for example {{ $json.id }} (a Google Drive file ID) or the file\'s path, or identify files by Content.',
	);
}

/** The item's Options with every number checked (see `checkedOption`). */
export function readUploadOptions(ctx: IExecuteFunctions, itemIndex: number): UploadOptions {
	const { skipUploaded, ...rest } = ctx.getNodeParameter(
		'options',
		itemIndex,
		{},
	) as UploadOptions & {
		skipUploaded?: unknown;
	};
	const options: UploadOptions = { ...rest };
	for (const name of NUMBER_OPTIONS) {
		if (options[name] !== undefined)
			options[name] = checkedOption(ctx, itemIndex, name, options[name]);
	}
	options.fileName = checkedText(ctx, itemIndex, 'File Name', fileNameText(options.fileName));
	options.skip = skipOf(ctx, itemIndex, skipUploaded);
	return options;
}
