import { createHash } from 'node:crypto';

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseTakenAt } from '../helpers/takenAt';
import type { Policy } from '../transport/request';
import { DEFAULT_POLICY } from '../transport/request';

/** Numeric parameters, checked whatever an expression made of them (NaN, 2.5, "10", an object). */
export const NUMBER_RULES = {
	concurrency: { label: 'Concurrent Uploads', min: 0, max: 64, integer: true },
	maxAttempts: { label: 'Max Attempts', min: 1, max: 20, integer: true },
	maxTotalWaitSeconds: { label: 'Max Total Wait (Seconds)', min: 0, max: 3600, integer: false },
	timeoutSeconds: { label: 'Timeout (Seconds)', min: 1, max: 600, integer: true },
	limit: { label: 'Limit', min: 1, max: 100_000, integer: true },
	maxFileSizeMb: { label: 'Max File Size (MiB)', min: 1, max: 1024 * 1024, integer: false },
} as const;

type NumberName = keyof typeof NUMBER_RULES;

/** What a value is, as an error quotes it (at most 40 characters of it). */
function quoted(value: unknown): string {
	if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'empty (null)';
	return typeof value === 'object' ? 'an object' : String(value).slice(0, 40);
}

const fail = (ctx: IExecuteFunctions, message: string, description: string, itemIndex?: number) =>
	new NodeOperationError(ctx.getNode(), message, { description, itemIndex });

/** One numeric value of its rule's range; `itemIndex` undefined for a value that applies to the whole run. */
export function checkedNumber(
	ctx: IExecuteFunctions,
	name: NumberName,
	value: unknown,
	itemIndex?: number,
	where = 'Options > ',
) {
	const rule = NUMBER_RULES[name];
	const text = typeof value === 'string' ? value.trim() : '';
	const number = typeof value === 'number' ? value : text === '' ? NaN : Number(text);
	const range = `${rule.integer ? 'a whole number' : 'a number'} from ${rule.min} to ${rule.max}`;
	const kind = rule.integer ? Number.isInteger(number) : Number.isFinite(number);
	if (kind && number >= rule.min && number <= rule.max) return number;
	throw fail(
		ctx,
		`"${rule.label}" is ${quoted(value)}, but must be ${range}`,
		`Set ${where}"${rule.label}" to ${range}${name === 'limit' ? ', or turn on "Return All"' : ''}; when it is an expression, check what it gives.`,
		itemIndex,
	);
}

/** Return All / Limit of a Get Many operation; Return All may also be the text "true" or "false". */
export function applyLimit<T>(ctx: IExecuteFunctions, itemIndex: number, list: T[]): T[] {
	const value: unknown = ctx.getNodeParameter('returnAll', itemIndex, false);
	const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (text === true || text === 'true') return list;
	if (text !== false && text !== 'false')
		throw fail(
			ctx,
			`"Return All" must be true or false, not ${quoted(value)}`,
			'Turn "Return All" on or off; when it is an expression, make it give true or false.',
			itemIndex,
		);
	const limit = ctx.getNodeParameter('limit', itemIndex, 50);
	return list.slice(0, checkedNumber(ctx, 'limit', limit, itemIndex, ''));
}

/** JSON's replacer for a File ID: objects with their keys sorted, so that equal objects give equal text. */
function sortedKeys(_key: string, value: unknown): unknown {
	if (typeof value === 'bigint') return String(value);
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const record = value as Record<string, unknown>;
	return Object.fromEntries(
		Object.keys(record)
			.sort()
			.map((key) => [key, record[key]]),
	);
}

/** `={{ $json.a.b }}`, the usual File ID: a path into the item's own JSON. */
const JSON_PATH = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/**
 * Each item's File ID. `{{ $json.<path> }}` leading to text or a number is read from the item itself:
 * n8n's evaluation costs some 0.1-0.2 ms, most of a Keep New run over 2,000 known files.
 */
export function fileIdReader(
	ctx: IExecuteFunctions,
	name: string,
	items: INodeExecutionData[],
): (itemIndex: number) => unknown {
	const raw = ctx.getNode().parameters[name];
	const path = typeof raw === 'string' ? JSON_PATH.exec(raw)?.[1].slice(1).split('.') : undefined;
	return (itemIndex) => {
		let value: unknown = items[itemIndex]?.json;
		for (const key of path ?? [])
			value =
				typeof value === 'object' && value !== null && Object.hasOwn(value, key)
					? (value as Record<string, unknown>)[key]
					: undefined;
		if (path && (typeof value === 'string' || typeof value === 'number')) return value;
		return ctx.getNodeParameter(name, itemIndex, '');
	};
}

/** A File ID as text: objects as JSON with sorted keys, dates in ISO 8601; over 200 characters, its SHA-256. */
export function fileIdText(
	ctx: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
	label: string,
): string {
	let text: string | undefined;
	try {
		// dates (and n8n's DateTime) as ISO 8601 by their toJSON; a string date stays as written
		if (value === undefined || value === null) text = '';
		else if (typeof value === 'string') text = value.trim();
		else text = JSON.stringify(value, sortedKeys)?.replace(/^"(.*)"$/, '$1');
	} catch {
		text = undefined; // an object that contains itself
	}
	if (text === undefined)
		throw fail(
			ctx,
			`"${label}" is ${typeof value === 'object' ? 'an object that contains itself' : `a ${typeof value}`}, which cannot identify a file`,
			`Set "${label}" to text, a number or an object (compared as JSON), for example {{ $json.id }}.`,
			itemIndex,
		);
	return text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Options > Taken At, as the editor stores it; EXIF with no date sent when it was not added. */
function takenAtPlan(ctx: IExecuteFunctions, itemIndex: number, raw: unknown) {
	const settings =
		(raw as { settings?: { source?: string; fallback?: string; value?: unknown } } | undefined)
			?.settings ?? {};
	const exif = (settings.source ?? 'exif') === 'exif';
	const fallback = (exif ? settings.fallback : settings.source) ?? 'none';
	if (fallback !== 'value')
		return { exif, fallback: fallback === 'now' ? 'now' : 'none', value: undefined };
	const parsed = parseTakenAt(settings.value, ctx.getTimezone());
	if (parsed.ok && parsed.value === undefined)
		throw fail(
			ctx,
			'"Taken At" is set to a value, but its Value is empty',
			'Set Options > "Taken At" > "Value" (for example {{ $json.shotAt }}), or take the date from the photo, or send none.',
			itemIndex,
		);
	if (!parsed.ok)
		throw fail(
			ctx,
			`"Taken At" cannot be read: ${parsed.reason}`,
			'Set Options > "Taken At" > "Value" to an ISO 8601 date such as 2026-06-20T18:30:00+02:00, epoch milliseconds or seconds, or an n8n date such as {{ $now }}.',
			itemIndex,
		);
	return { exif, fallback: 'value' as const, value: parsed.value };
}

/** Options > Skip Files Uploaded Before: off when not added, else by content or by a File ID that is not empty. */
function skipOf(ctx: IExecuteFunctions, itemIndex: number, raw: unknown) {
	const settings = (raw as { settings?: { identifyBy?: unknown; fileId?: unknown } } | undefined)
		?.settings;
	if (!settings) return undefined;
	if (settings.identifyBy !== 'fileId') return { by: 'content' as const };
	const fileId = fileIdText(ctx, settings.fileId, itemIndex, 'File ID');
	if (fileId !== '') return { by: 'fileId' as const, fileId };
	throw fail(
		ctx,
		'"Skip Files Uploaded Before" identifies files by File ID, but the File ID is empty',
		'Set its "File ID" to a value that tells files apart, for example {{ $json.id }} (a Google Drive file ID) or the file\'s path, or identify files by Content.',
		itemIndex,
	);
}

/** The Upload's options of one item, checked; Concurrent Uploads is read from the first item only. */
export function readUploadOptions(ctx: IExecuteFunctions, itemIndex: number) {
	const raw = ctx.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
	const number = (name: NumberName, fallback: number) =>
		raw[name] === undefined ? fallback : checkedNumber(ctx, name, raw[name], itemIndex);
	const fileName = raw.fileName ?? '';
	if (typeof fileName !== 'string' && !(typeof fileName === 'number' && Number.isFinite(fileName)))
		throw fail(
			ctx,
			`"File Name" is ${quoted(fileName)}, but must be text`,
			'Set Options > "File Name" to text, for example {{ $json.name }}.jpg; when it is an expression, check what it gives.',
			itemIndex,
		);
	const types = raw.fileTypes ?? 'media';
	const policy: Policy = {
		...DEFAULT_POLICY,
		maxAttempts: number('maxAttempts', DEFAULT_POLICY.maxAttempts),
		maxTotalWaitMs: number('maxTotalWaitSeconds', DEFAULT_POLICY.maxTotalWaitMs / 1000) * 1000,
		timeoutMs: number('timeoutSeconds', DEFAULT_POLICY.timeoutMs / 1000) * 1000,
	};
	return {
		fileName: String(fileName),
		types: { allowUnknown: types === 'unknown' || types === 'any', allowOther: types === 'any' },
		allowInternal: raw.allowInternalAddresses === true,
		maxBytes: Math.floor(number('maxFileSizeMb', 1024) * 1024 * 1024),
		policy,
		skip: skipOf(ctx, itemIndex, raw.skipUploaded),
		takenAt: takenAtPlan(ctx, itemIndex, raw.takenAt),
	};
}

export type UploadOptions = ReturnType<typeof readUploadOptions>;

/** Concurrent Uploads 0 (automatic): 4 at first, growing to 64 while EventPics answers quickly. */
export const AUTO_CONCURRENCY = { max: 64, start: 4 };

/** Concurrent Uploads of the run (the first item's): automatic (0 or not added), or that many. */
export function concurrencyOf(ctx: IExecuteFunctions): { max: number; start?: number } {
	const raw = (ctx.getNodeParameter('options', 0, {}) as { concurrency?: unknown }).concurrency;
	const concurrency = raw === undefined ? 0 : checkedNumber(ctx, 'concurrency', raw);
	return concurrency === 0 ? AUTO_CONCURRENCY : { max: concurrency };
}
