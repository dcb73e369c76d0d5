import type { IDataObject, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { isoInZone } from '../../../helpers/timeZone';
import type { NodeError } from '../../items';

/** What became of one file: the first field of its output item. */
type Outcome = 'uploaded' | 'skipped' | 'incomplete' | 'failed';

/**
 * The fields of every output item of Photo > Upload, in this order. Every item has all of them
 * (null where a field does not apply), so n8n's table shows the same columns for uploaded, skipped
 * and failed files, and its first columns say what became of which file, where. `reason` says why
 * a file was skipped or failed; `error` holds a failure's message too, where n8n's Continue On Fail
 * puts it.
 */
const FIELDS = [
	'outcome',
	'fileName',
	'reason',
	'eventTitle',
	'albumTitle',
	'linkId',
	'albumId',
	'contentType',
	'bytes',
	'takenAt',
	'takenAtIso',
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
	'dedupeKey',
	'possibleDuplicate',
	'warnings',
	'error',
] as const;

type FileField = (typeof FIELDS)[number];

/** What is known of a file, by output field; absent fields become null. */
export type FileDetails = Partial<Record<Exclude<FileField, 'outcome'>, IDataObject[string]>>;

/** The output JSON of one file: every field, `outcome` first, `warnings` always a list. */
export function fileOutput(outcome: Outcome, details: FileDetails): IDataObject {
	const json: IDataObject = {};
	for (const field of FIELDS)
		json[field] = field === 'outcome' ? outcome : (details[field] ?? null);
	if (!Array.isArray(json.warnings)) json.warnings = [];
	return json;
}

/**
 * The fields a user acts on, as Simplify shows them: what became of the file, which file, where it
 * went, when it was taken (null: none was sent), its size, its warnings, and why it was not uploaded:
 * `reason` and `error` only where there is one, so that a run of uploaded files shows no empty column.
 */
export function simplifiedOutput(json: IDataObject): IDataObject {
	const simple: IDataObject = {
		outcome: json.outcome,
		fileName: json.fileName,
		eventTitle: json.eventTitle,
		albumTitle: json.albumTitle,
		takenAt: json.takenAtIso,
		bytes: json.bytes,
	};
	if (json.reason !== null) simple.reason = json.reason;
	if (json.error !== null) simple.error = json.error;
	simple.warnings = json.warnings;
	return simple;
}

/** Taken At as epoch milliseconds and as ISO 8601 in the workflow's time zone (with its offset). */
export function takenAtDetails(takenAt: number | undefined, timeZone: string): FileDetails {
	if (takenAt === undefined) return { takenAt: null, takenAtIso: null };
	return { takenAt, takenAtIso: isoInZone(takenAt, timeZone) };
}

/**
 * The output entry of a file or item that failed under Continue On Fail.
 * - "Continue" (regular output): an item like the others, `outcome: "failed"`, the message in
 *   `reason` and `error`. It does not carry the error object: n8n's engine replaces the JSON of an
 *   item that does with `{ error }` alone (WorkflowExecute.normalizeNodeErrors, n8n-core 2.41).
 * - "Continue (using error output)": n8n's own error item (the error object, `{ error }`), which
 *   is what the engine routes to the error output.
 */
export function failedOutput(
	error: NodeError,
	itemIndex: number,
	errorOutput: boolean,
	details: FileDetails = {},
): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	if (errorOutput) return { json: { error: error.message }, error, pairedItem };
	const json = fileOutput('failed', { ...details, reason: error.message, error: error.message });
	return { json, pairedItem };
}

const plural = (count: number) => (count === 1 ? 'file' : 'files');

/**
 * The run in one line for n8n's output pane: how many files were uploaded, skipped and failed
 * (and how many carry a warning). A warning hint when any failed.
 */
export function outcomeHint(outputs: INodeExecutionData[]): NodeExecutionHint | undefined {
	if (outputs.length === 0) return undefined;
	const count = (outcome: Outcome) => outputs.filter((o) => o.json.outcome === outcome).length;
	const uploaded = count('uploaded');
	const skipped = count('skipped');
	const incomplete = count('incomplete');
	const failed = outputs.filter((o) => o.json.outcome === 'failed' || o.error).length;
	const warned = outputs.filter(
		(o) => Array.isArray(o.json.warnings) && o.json.warnings.length > 0,
	).length;
	const parts = [`${uploaded} ${plural(uploaded)} uploaded`];
	if (skipped > 0) parts.push(`${skipped} skipped (uploaded before)`);
	if (incomplete > 0) parts.push(`${incomplete} cut short, not uploaded (see "reason")`);
	if (failed > 0) parts.push(`${failed} failed (see "reason")`);
	if (warned > 0) parts.push(`${warned} with a warning (see "warnings")`);
	return {
		message: `EventPics: ${parts.join(', ')}.`,
		type: failed > 0 ? 'warning' : 'info',
		location: 'outputPane',
	};
}
