import type { IExecuteFunctions } from 'n8n-workflow';

import { checkNumber, NUMBER_RULES, rangeText } from '../../helpers/numberOption';
import { itemError } from '../items';

/**
 * Concurrency: without the "Concurrent Uploads" option the node starts with START_CONCURRENCY and
 * may grow to AUTO_MAX_CONCURRENCY while the answers stay good; with it, the user's number (1-16)
 * runs from the start (fewer for a while after a 429). DEFAULT_CONCURRENCY is the value the option
 * shows when added.
 */
export const AUTO_MAX_CONCURRENCY = 64;
export const DEFAULT_CONCURRENCY = 16;
export const START_CONCURRENCY = 4;

/** The names of the type options, as the Options list shows them and messages name them. */
export const ALLOW_ANY_TYPE = 'Allow Any File Type';
export const ALLOW_UNKNOWN_TYPES = 'Allow Unknown Types';

/** Max File Size (MB) of the URL source when the option is not added. */
export const DEFAULT_MAX_FILE_SIZE_MB = 1024;

export interface UploadOptions {
	fileName?: string;
	allowUnknownType?: boolean;
	maxAttempts?: number;
	maxTotalWaitSeconds?: number;
	timeoutSeconds?: number;
	concurrency?: number;
	skipDuplicates?: boolean;
	dedupeKey?: string;
	allowOtherTypes?: boolean;
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

const NUMBER_OPTIONS = [
	'concurrency',
	'maxAttempts',
	'maxTotalWaitSeconds',
	'timeoutSeconds',
] as const;

/** The item's Options with every number checked (see `checkedOption`). */
export function readUploadOptions(ctx: IExecuteFunctions, itemIndex: number): UploadOptions {
	const options = { ...(ctx.getNodeParameter('options', itemIndex, {}) as UploadOptions) };
	for (const name of NUMBER_OPTIONS) {
		if (options[name] !== undefined)
			options[name] = checkedOption(ctx, itemIndex, name, options[name]);
	}
	if (String(options.dedupeKey ?? '').trim() !== '' && options.skipDuplicates !== true) {
		throw itemError(
			ctx,
			itemIndex,
			`Option "Duplicate Key" is set but "Skip Files Uploaded Before" is not (item ${itemIndex})`,
			'Turn on Options > "Skip Files Uploaded Before" to skip files uploaded before, or remove Options > "Duplicate Key": it only tells that option what identifies a file.',
		);
	}
	return options;
}
