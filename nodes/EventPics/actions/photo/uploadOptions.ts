import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkNumber, NUMBER_RULES, rangeText } from '../../helpers/numberOption';

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

function fail(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string) {
	return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
}

const NUMBER_OPTIONS = [
	'concurrency',
	'maxAttempts',
	'maxTotalWaitSeconds',
	'timeoutSeconds',
] as const;

/**
 * The item's Options with every number checked, whatever an expression made of it (NaN, 0, -1,
 * 2.5, 1000, text): an error names the option, the value and the allowed range.
 */
export function readUploadOptions(ctx: IExecuteFunctions, itemIndex: number): UploadOptions {
	const options = { ...(ctx.getNodeParameter('options', itemIndex, {}) as UploadOptions) };
	for (const name of NUMBER_OPTIONS) {
		if (options[name] === undefined) continue;
		const rule = NUMBER_RULES[name];
		const check = checkNumber(options[name], rule);
		if (!check.ok) {
			throw fail(
				ctx,
				itemIndex,
				`Option ${check.reason} (item ${itemIndex})`,
				`Set Options > "${rule.label}" to ${rangeText(rule)}; when it is an expression, check what it gives for this item.`,
			);
		}
		options[name] = check.value;
	}
	if (String(options.dedupeKey ?? '').trim() !== '' && options.skipDuplicates !== true) {
		throw fail(
			ctx,
			itemIndex,
			`Option "Duplicate Key" is set but "Skip Files Uploaded Before" is not (item ${itemIndex})`,
			'Turn on Options > "Skip Files Uploaded Before" to skip files uploaded before, or remove Options > "Duplicate Key": it only tells that option what identifies a file.',
		);
	}
	return options;
}
