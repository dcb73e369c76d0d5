import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

import { toNodeError } from '../helpers/errors';

/** What became of one file: the first field of its output item. */
export type Outcome = 'uploaded' | 'skipped' | 'incomplete' | 'failed';

/** The fields of every Upload output item, in this order, each always there: n8n's table shows one set of columns. */
const FIELDS = [
	'outcome',
	'fileName',
	'reason',
	'error',
	'eventTitle',
	'albumTitle',
	'linkId',
	'albumId',
	'contentType',
	'bytes',
	'takenAt',
	'takenAtMs',
	'takenAtSource',
	'exifTag',
	'binaryField',
	'url',
	'typeFromContent',
	'whole',
	'binaryDataMode',
	'statusCode',
	'attempts',
	'uploadUrlRequests',
	'etag',
	'historyKey',
	'possibleDuplicate',
	'warnings',
] as const;

/** The fields Simplify keeps: those a user acts on, in the same names and types. */
const SIMPLE = [
	'outcome',
	'fileName',
	'reason',
	'error',
	'eventTitle',
	'albumTitle',
	'takenAt',
	'bytes',
	'warnings',
];

/** What is known of a file, by output field. */
export type FileDetails = Partial<
	Record<Exclude<(typeof FIELDS)[number], 'outcome'>, IDataObject[string]>
>;

/** The output JSON of one file: every field, `outcome` first, `warnings` always a list. */
export function fileOutput(outcome: Outcome, details: FileDetails): IDataObject {
	const json: IDataObject = {};
	for (const field of FIELDS)
		json[field] = field === 'outcome' ? outcome : (details[field] ?? null);
	if (!Array.isArray(json.warnings)) json.warnings = [];
	return json;
}

/** Simplify: the fields a user acts on; `reason` and `error` only where there is one (no empty column). */
export function simplified(json: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const field of SIMPLE)
		if (json[field] !== null || !['reason', 'error'].includes(field)) simple[field] = json[field];
	return simple;
}

/**
 * A failed file or item under Continue On Fail: an item like the others, or n8n's own error item for
 * the error output. The regular item does not carry the error: n8n would replace its JSON by `{ error }`.
 */
export function failedOutput(
	error: Error,
	itemIndex: number,
	errorOutput: boolean,
	details: FileDetails = {},
): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	if (errorOutput) return { json: { error: error.message }, error: error as never, pairedItem };
	return { json: fileOutput('failed', { ...details, error: error.message }), pairedItem };
}

/** An item's error as Continue On Fail's entry, or thrown; the API key never reaches its words. */
export function failedItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	secret: string,
): INodeExecutionData {
	const nodeError = toNodeError(ctx.getNode(), error, { itemIndex, secret });
	if (!ctx.continueOnFail()) throw nodeError;
	return failedOutput(nodeError, itemIndex, true);
}

const files = (count: number) => `${count} ${count === 1 ? 'file' : 'files'}`;

/** The run in one line for n8n's output pane; a warning when any file failed. */
export function outcomeHint(outputs: INodeExecutionData[]): NodeExecutionHint | undefined {
	if (outputs.length === 0) return undefined;
	const count = (test: (output: INodeExecutionData) => unknown) => outputs.filter(test).length;
	const outcome = (name: Outcome) => count((output) => output.json.outcome === name);
	const failed = count((output) => output.json.outcome === 'failed' || output.error);
	const warned = count((output) => (output.json.warnings as unknown[] | undefined)?.length);
	const parts = [`${files(outcome('uploaded'))} uploaded`];
	if (outcome('skipped') > 0) parts.push(`${outcome('skipped')} skipped (uploaded before)`);
	if (outcome('incomplete') > 0)
		parts.push(`${outcome('incomplete')} cut short, not uploaded (see "reason")`);
	if (failed > 0) parts.push(`${failed} failed (see "error")`);
	if (warned > 0) parts.push(`${warned} with a warning (see "warnings")`);
	return {
		message: `EventPics: ${parts.join(', ')}.`,
		type: failed > 0 ? 'warning' : 'info',
		location: 'outputPane',
	};
}
