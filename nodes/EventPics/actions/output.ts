import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

import { toNodeError } from '../helpers/errors';

/** What became of one file: the first field of its output item. */
export type Outcome = 'uploaded' | 'skipped' | 'incomplete' | 'failed';

/**
 * The fields of every Photo > Upload output item, in this order, each always there (null where it
 * does not apply), so n8n's table shows one set of columns and its first say what became of which
 * file, where. `reason` says why a file was skipped or not uploaded; `error` why it failed.
 */
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
 * The output entry of a file or item that failed under Continue On Fail: an item like the others
 * (`outcome: "failed"`, the message in `error`), or, with "Continue (using error output)", n8n's own
 * error item, which the engine routes to the error output. The regular item does not carry the error
 * object: n8n's engine replaces the JSON of an item that does with `{ error }` alone.
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

/**
 * An item's error as n8n's Continue On Fail wants it (its entry: the message, the error, the item),
 * or thrown when Continue On Fail is off. The API key never reaches its words.
 */
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
	const count = (outcome: Outcome) =>
		outputs.filter((output) => output.json.outcome === outcome).length;
	const failed = outputs.filter(
		(output) => output.json.outcome === 'failed' || output.error,
	).length;
	const warned = outputs.filter(
		(output) => (output.json.warnings as unknown[] | undefined)?.length,
	).length;
	const parts = [`${files(count('uploaded'))} uploaded`];
	if (count('skipped') > 0) parts.push(`${count('skipped')} skipped (uploaded before)`);
	if (count('incomplete') > 0)
		parts.push(`${count('incomplete')} cut short, not uploaded (see "reason")`);
	if (failed > 0) parts.push(`${failed} failed (see "error")`);
	if (warned > 0) parts.push(`${warned} with a warning (see "warnings")`);
	return {
		message: `EventPics: ${parts.join(', ')}.`,
		type: failed > 0 ? 'warning' : 'info',
		location: 'outputPane',
	};
}
