import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Voice } from '../../helpers/errors';
import { toNodeError } from '../../helpers/errors';
import { sanitizeFileName } from '../../helpers/fileName';
import { shown } from '../../helpers/text';
import { shownUrl } from '../../transport/download';
import { Pacer, runPool } from '../../transport/pacing';
import { uploadFile } from '../../transport/upload';
import type { Account } from '../account';
import { chosenEventAndAlbum, readAccount } from '../account';
import {
	AS_TOOL,
	albumFields,
	eventFields,
	fromAI,
	NOT_AS_TOOL,
	operationFields,
} from '../node.description';
import { concurrencyOf, NUMBER_RULES, readUploadOptions } from '../options';
import { failedOutput, fileOutput, outcomeHint, simplified } from '../output';
import type { Decided, FileJob } from './file';
import { decideFile, itemBinary } from './file';
import { historyKey, RunHistory } from './history';

export const option = {
	name: 'Upload',
	value: 'upload',
	description:
		'Upload a photo or video into an event album, from a binary field of the item or a URL',
	action: 'Upload photo',
};

const number = (
	name: keyof typeof NUMBER_RULES,
	value: number,
	description: string,
): INodeProperties => ({
	displayName: NUMBER_RULES[name].label,
	name,
	type: 'number',
	default: value,
	typeOptions: { minValue: NUMBER_RULES[name].min, maxValue: NUMBER_RULES[name].max },
	description,
});

const takenAtValue = (show: Record<string, string[]>): INodeProperties => ({
	displayName: 'Value',
	name: 'value',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-06-20T18:30:00+02:00',
	description:
		"A date (in the workflow's time zone when it has no offset), a timestamp, or an n8n date such as {{ $now }}",
	displayOptions: { show },
});

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Allow Internal Addresses',
			name: 'allowInternalAddresses',
			type: 'boolean',
			default: false,
			description:
				'Whether the File URL, and the upload address EventPics answers with, may point to this machine or a private network (localhost, 10.x, 192.168.x, ...). Only for local set-ups you trust.',
		},
		{
			...number(
				'concurrency',
				0,
				'How many files go up at once. 0: automatic, from 4 up to 64 while EventPics answers quickly.',
			),
			hint: '0 = automatic (4 growing to 64); 1 uploads one file after the other',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. booth-0001.jpg',
			description:
				"Name to upload the file under, instead of its own. An extension is added from the file's type when the name has none.",
		},
		{
			displayName: 'File Types',
			name: 'fileTypes',
			type: 'options',
			default: 'media',
			description: 'Which files to upload; others are refused with an error that names the file',
			options: [
				{
					name: 'Any File',
					value: 'any',
					description: 'Any file, as it is, without looking at its content',
				},
				{
					name: 'Photos and Videos',
					value: 'media',
					description: 'Photos and videos whose content is what their name says, whole',
				},
				{
					name: 'Photos, Videos and Unknown Types',
					value: 'unknown',
					description:
						'Also files whose type cannot be told from their name (camera RAW, unknown extensions), sent as a file of unknown type',
				},
			],
		},
		number(
			'maxAttempts',
			8,
			'How many times one file is tried when EventPics is busy or the connection breaks',
		),
		number('maxFileSizeMb', 1024, 'Largest file downloaded from a File URL'),
		number(
			'maxTotalWaitSeconds',
			120,
			'Longest time one file waits between its tries, all pauses EventPics asks for included',
		),
		{
			displayName: 'Skip Files Uploaded Before',
			name: 'skipUploaded',
			type: 'fixedCollection',
			default: { settings: { identifyBy: 'content' } },
			description:
				'Skip files this workflow uploaded to the same event and album before, while this option was on',
			hint: 'Only uploads made while this option is on are known: turn it on before the first import',
			options: [
				{
					displayName: 'Settings',
					name: 'settings',
					values: [
						{
							displayName: 'Identify Files By',
							name: 'identifyBy',
							type: 'options',
							default: 'content',
							options: [
								{
									name: 'Content',
									value: 'content',
									description:
										'The same bytes, whatever the file is called (each file is read to tell)',
								},
								{
									name: 'File ID',
									value: 'fileId',
									description:
										"A value of the item, such as a Google Drive file's ID or a file's path: Keep New can then leave known files out before they are fetched",
								},
							],
						},
						{
							displayName: 'File ID',
							name: 'fileId',
							type: 'string',
							default: '',
							placeholder: 'e.g. {{ $json.path }}',
							description:
								"What tells this file apart, the same in every run, such as a Google Drive file's ID or the path of a file in a folder",
							displayOptions: { show: { identifyBy: ['fileId'] } },
						},
					],
				},
			],
		},
		{
			displayName: 'Taken At',
			name: 'takenAt',
			type: 'fixedCollection',
			default: { settings: { source: 'exif', fallback: 'none' } },
			description:
				'When the photo was taken, which EventPics uses to sort the album. Without this option: from the photo, none sent when it has no date.',
			options: [
				{
					displayName: 'Settings',
					name: 'settings',
					values: [
						{
							displayName: 'From',
							name: 'source',
							type: 'options',
							default: 'exif',
							options: [
								{
									name: 'The Photo',
									value: 'exif',
									description: 'The time the camera wrote into the photo',
								},
								{
									name: 'A Value',
									value: 'value',
									description: 'A date or timestamp, usually an expression',
								},
								{ name: 'The Upload Time', value: 'now' },
								{ name: 'None (Send No Date)', value: 'none' },
							],
						},
						{
							displayName: 'When the Photo Has No Date',
							name: 'fallback',
							type: 'options',
							default: 'none',
							description: 'For screenshots, videos and edited images',
							options: [
								{ name: 'None (Send No Date)', value: 'none' },
								{ name: 'The Upload Time', value: 'now' },
								{ name: 'A Value', value: 'value' },
							],
							displayOptions: { show: { source: ['exif'] } },
						},
						takenAtValue({ source: ['value'] }),
						takenAtValue({ source: ['exif'], fallback: ['value'] }),
					],
				},
			],
		},
		number(
			'timeoutSeconds',
			60,
			'Longest time a call to EventPics may take, and an upload or download may go without moving data',
		),
	],
};

const source: INodeProperties = {
	displayName: 'Source',
	name: 'source',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Binary Field',
			value: 'binary',
			description: 'Files that earlier nodes put into the items',
		},
		{ name: 'URL', value: 'url', description: 'Download the file from an http(s) address' },
	],
	default: 'binary',
	displayOptions: NOT_AS_TOOL,
};

const fileUrl: INodeProperties = {
	displayName: 'File URL',
	name: 'fileUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://example.com/photos/booth-0001.jpg',
	description: 'The http(s) address of the photo or video',
	displayOptions: { show: { source: ['url'] }, ...NOT_AS_TOOL },
};

export const description: INodeProperties[] = operationFields(
	'photo',
	'upload',
	"Uploads a photo or video from a public http(s) address into an EventPics event album. Pass the event's linkId, the album id (empty for none) and the file's address as fileUrl. Answers with outcome (uploaded, skipped, incomplete or failed), fileName, bytes, eventTitle and albumTitle.",
	[
		...eventFields,
		...albumFields,
		source,
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: "Several: data, photo2. All of the item's binary fields (every file of a form field): *",
			description:
				'The binary field of the item that holds the photo or video; each file becomes one output item',
			displayOptions: { show: { source: ['binary'] }, ...NOT_AS_TOOL },
		},
		fileUrl,
		{
			...fileUrl,
			description:
				'The http(s) address of the photo or video; the AI agent gives it unless you set one',
			default: fromAI('fileUrl', 'The public http(s) address of the photo or video to upload'),
			displayOptions: AS_TOOL,
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint: 'On: what became of each file, its name, event, album, date, size and warnings. Off: every detail of the upload.',
		},
		options,
	],
);

/** The Upload's words for a failed request: the options that change it. */
const VOICE: Voice = {
	names: {
		timeout: 'Options > "Timeout (Seconds)"',
		wait: 'Options > "Max Total Wait (Seconds)"',
		rate: 'lower Options > "Concurrent Uploads", raise "Max Attempts" or "Max Total Wait (Seconds)"',
		internal: 'Options > "Allow Internal Addresses"',
		maxSize: 'Options > "Max File Size (MiB)"',
	},
};

const itemError = (ctx: IExecuteFunctions, error: unknown, itemIndex: number, account: Account) =>
	toNodeError(ctx.getNode(), error, { itemIndex, secret: account.apiKey, voice: VOICE });

/** One file of the run: the file decided (or `unread`, why not), its history key and skip turn, its output. */
interface Turn {
	job: FileJob;
	file?: Decided;
	unread?: unknown;
	key?: string;
	skip?: ReturnType<typeof skipTurn>;
	output?: INodeExecutionData;
	error?: Error;
}

/** The files an item names: its binary fields (a comma list, or * for all), or its File URL. */
async function itemJobs(ctx: IExecuteFunctions, account: Account, itemIndex: number) {
	const options = readUploadOptions(ctx, itemIndex);
	const { event, album } = await chosenEventAndAlbum(ctx, account, itemIndex);
	const base = { itemIndex, linkId: event.linkId, albumId: album?.id, options };
	const details = {
		linkId: event.linkId,
		eventTitle: event.title,
		albumId: album?.id ?? null,
		albumTitle: album?.title ?? null,
	};
	if (
		ctx.getNode().type.endsWith('Tool') ||
		ctx.getNodeParameter('source', itemIndex, 'binary') === 'url'
	) {
		const url = String(ctx.getNodeParameter('fileUrl', itemIndex, '')).trim();
		if (url === '')
			throw new NodeOperationError(ctx.getNode(), 'The File URL is empty', {
				description: 'Set "File URL" to the http(s) address of the file.',
				itemIndex,
			});
		const shownAt = URL.canParse(url) ? shownUrl(new URL(url)) : null;
		return [{ ...base, from: { url }, details: { ...details, url: shownAt } }];
	}
	const list = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const all = list.trim() === '*';
	const names = all ? Object.keys(binaries) : list.split(',').map((name) => name.trim());
	const fields = names.filter(Boolean);
	if (fields.length === 0)
		throw new NodeOperationError(
			ctx.getNode(),
			all ? 'The item has no binary data' : '"Input Binary Field" is empty',
			{
				description:
					'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
				itemIndex,
			},
		);
	for (const field of fields) itemBinary(ctx, itemIndex, field);
	const { skip } = options;
	return fields.map((field) => ({
		...base,
		// several files of one item: a File ID is told apart by the binary field
		...(skip?.by === 'fileId' &&
			fields.length > 1 && {
				options: { ...options, skip: { ...skip, fileId: `${skip.fileId}#${field}` } },
			}),
		from: { field },
		details: {
			...details,
			binaryField: field,
			fileName: sanitizeFileName(binaries[field].fileName ?? '') || null,
		},
	}));
}

/** Every item's files, checked before any upload; without Continue On Fail a failing item stops the later ones. */
async function planItems(ctx: IExecuteFunctions, account: Account, continueOnFail: boolean) {
	const planned: Array<Turn[] | Error> = [];
	for (let itemIndex = 0; itemIndex < ctx.getInputData().length; itemIndex++) {
		try {
			planned.push((await itemJobs(ctx, account, itemIndex)).map((job) => ({ job })));
		} catch (error) {
			planned.push(itemError(ctx, error, itemIndex, account));
			if (!continueOnFail) break;
		}
	}
	return planned;
}

/**
 * Skip Files Uploaded Before, for the run: each file's key (its File ID, or its content: the file is
 * decided now, once), one question to the workflow's history, the claims in item order.
 */
async function planSkips(ctx: IExecuteFunctions, account: Account, turns: Turn[]) {
	const skipping = turns.filter((turn) => turn.job.options.skip);
	if (skipping.length === 0) return undefined;
	let keptBytes = 0;
	await runPool(skipping.length, new Pacer({ max: 8 }), async (index) => {
		const turn = skipping[index];
		const { job } = turn;
		const skip = job.options.skip!;
		try {
			if (skip.by === 'content') {
				const file = (turn.file = await decideFile(ctx, job, true));
				// a file read whole (database mode) stays in memory until its upload, 32 MiB in all
				if (file.details.binaryDataMode && keptBytes + file.size <= 32 * 1024 * 1024)
					keptBytes += file.size;
				else file.release();
			}
			const fileKey = skip.by === 'fileId' ? `key:${skip.fileId}` : `sha256:${turn.file!.hash}`;
			turn.key = historyKey(job.linkId, job.albumId, fileKey);
		} catch (error) {
			turn.unread = error;
		}
	});
	const keyed = skipping.filter((turn) => turn.key !== undefined);
	const history = new RunHistory(ctx, account);
	const known = await history.check(keyed.map((turn) => turn.key!));
	for (const turn of keyed) turn.skip = skipTurn(ctx, history, turn, known.has(turn.key!));
	return history;
}

/**
 * Skipped when the history knows the file; else it holds the claim on its key in this process (taken
 * now, in item order), or waits for whoever holds it: skipped once that upload arrived, tried when it
 * did not (unless another has taken the claim over meanwhile). `turn` says whether it goes;
 * `settle`, once, whether it arrived.
 */
function skipTurn(ctx: IExecuteFunctions, history: RunHistory, file: Turn, known: boolean) {
	const key = file.key!;
	const { itemIndex } = file.job;
	const held = known ? undefined : history.claimOf(key);
	let settle = known || held ? undefined : history.claim(key, itemIndex);
	const turn = async () => {
		if (known)
			return 'This workflow uploaded this file to this event and album before (Skip Files Uploaded Before).';
		if (!held) return undefined;
		const sameRun = held.executionId === ctx.getExecutionId();
		if (await held.arrived)
			return sameRun
				? `Input item ${held.itemIndex} of this run has the same file for this event and album, and it was uploaded (Skip Files Uploaded Before).`
				: `Execution ${held.executionId} of this workflow uploaded the same file to this event and album while this one ran (Skip Files Uploaded Before).`;
		const next = history.claimOf(key);
		if (next)
			return `Execution ${next.executionId} of this workflow is uploading the same file to this event and album (Skip Files Uploaded Before); if it fails there, a later run takes it.`;
		settle = history.claim(key, itemIndex);
		return undefined;
	};
	return { turn, settle: (arrived: boolean) => settle?.(arrived) };
}

/** What the files of one run share. Without Continue On Fail, items after `stopAt` are not uploaded. */
interface Run {
	account: Account;
	pacer: Pacer;
	continueOnFail: boolean;
	errorOutput: boolean;
	stopAt: number;
}

/** One file's turn in the pool: its output, or its error, which may stop later items. */
async function fileTurn(ctx: IExecuteFunctions, turn: Turn, run: Run, sending: Sending) {
	const { job } = turn;
	try {
		if (job.itemIndex > run.stopAt) return;
		const json = await sendOne(ctx, turn, run, sending);
		if (json) turn.output = { json, pairedItem: { item: job.itemIndex } };
	} catch (error) {
		turn.error = itemError(ctx, error, job.itemIndex, run.account);
		if (!run.continueOnFail) run.stopAt = Math.min(run.stopAt, job.itemIndex);
		// what the output says of a failed file: what was decided of it, else what its item says
		const details = turn.file
			? { ...turn.file.details, historyKey: turn.key ?? null }
			: job.details;
		turn.output = failedOutput(turn.error, job.itemIndex, run.errorOutput, details);
	} finally {
		turn.skip?.settle(false); // no-op once settled
		turn.file?.release();
	}
}

type Sending = () => Promise<void>;

/** One file skipped, cut short (not uploaded) or uploaded; undefined when the run stopped meanwhile. */
async function sendOne(ctx: IExecuteFunctions, turn: Turn, run: Run, sending: Sending) {
	const { job, skip } = turn;
	if (turn.unread) throw turn.unread;
	const skipped = await skip?.turn();
	if (job.itemIndex > run.stopAt) return undefined;
	const historyKey = turn.key ?? null;
	// a file skipped by its File ID is not read at all
	if (skipped)
		return fileOutput('skipped', {
			...(turn.file?.details ?? job.details),
			historyKey,
			reason: skipped,
		});
	const file = (turn.file ??= await decideFile(ctx, job, false));
	const { whole, details } = file;
	if (whole.whole === false && !job.options.types.allowOther)
		return fileOutput('incomplete', {
			...details,
			historyKey,
			reason: `"${shown(file.fileName)}" is cut short: ${whole.reason} (${whole.format}). It was not uploaded: if it is still being written, a later run takes it; if it is damaged, replace it.`,
		});
	const go = async () => {
		await sending();
		return job.itemIndex <= run.stopAt; // a run stopped while the file waited sends nothing more
	};
	const options = { allowInternal: job.options.allowInternal, signals: run.pacer, sending: go };
	const report = await uploadFile(ctx, run.account, file, job.options.policy, options);
	if (!report) return undefined;
	skip?.settle(true);
	const warnings = [...(details.warnings as string[]), ...report.brokenTransfers];
	if (report.possibleDuplicate)
		warnings.push(
			'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.',
		);
	return fileOutput('uploaded', { ...details, historyKey, ...report, warnings });
}

/**
 * Checks every item first, then uploads the files, "Concurrent Uploads" at once (transport/pacing.ts),
 * output in input order. Without Continue On Fail it behaves as if it went item by item: files of
 * items after the first failing one are not uploaded, and that item's error is thrown.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const errorOutput = this.getNode().onError === 'continueErrorOutput';
	let firstOptions: ReturnType<typeof readUploadOptions>;
	let pacer: Pacer;
	try {
		firstOptions = readUploadOptions(this, 0);
		pacer = new Pacer(concurrencyOf(this), firstOptions.policy.maxTotalWaitMs);
	} catch (error) {
		// an option of the whole run (or of the first item, which sets it): every item fails with it
		const nodeError = toNodeError(this.getNode(), error);
		if (!continueOnFail) throw nodeError;
		return items.map((_, itemIndex) => failedOutput(nodeError, itemIndex, errorOutput));
	}
	const account = await readAccount(this, firstOptions.policy);
	const planned = await planItems(this, account, continueOnFail);
	const turns = planned.flatMap((entry) => (entry instanceof Error ? [] : entry));
	const history = await planSkips(this, account, turns);
	const run: Run = { account, pacer, continueOnFail, errorOutput, stopAt: Infinity };
	await runPool(turns.length, pacer, async (index, sending) => {
		await fileTurn(this, turns[index], run, sending);
	});
	if (history) await recordHistory(this, history, turns);
	const output = planned.flatMap((entry, itemIndex) => {
		const error = entry instanceof Error ? entry : entry.find((turn) => turn.error)?.error;
		if (error && !continueOnFail) throw error;
		if (!(entry instanceof Error)) return entry.map((turn) => turn.output!);
		// an item that failed before any of its files was tried: one entry, named after its first file
		const named = Object.entries(items[itemIndex].binary ?? {}).find(([, file]) => file?.fileName);
		const fileName = named ? sanitizeFileName(named[1].fileName!) || null : null;
		const details = { binaryField: named?.[0] ?? null, fileName };
		return [failedOutput(entry, itemIndex, errorOutput, details)];
	});
	const hint = outcomeHint(output);
	if (hint) this.addExecutionHints(hint);
	return output.map((entry) => {
		const itemIndex = (entry.pairedItem as { item: number }).item;
		return entry.error || !this.getNodeParameter('simplify', itemIndex, true)
			? entry
			: { ...entry, json: simplified(entry.json) };
	});
}

/** The end of Skip Files Uploaded Before: the record, what it could not record, its hints and warnings. */
async function recordHistory(ctx: IExecuteFunctions, history: RunHistory, turns: Turn[]) {
	const end = await history.finish();
	if (end.warning)
		ctx.addExecutionHints({ message: end.warning, type: 'warning', location: 'outputPane' });
	if (end.isNew)
		ctx.addExecutionHints({
			message:
				"EventPics: this run began the workflow's history of uploaded files (Skip Files Uploaded Before). Files uploaded before the option was on are not in it, so any of them in this run went up again.",
			type: 'info',
			location: 'outputPane',
		});
	const unrecorded = new Set(end.unrecorded);
	for (const { output, key } of turns) {
		if (output?.json.outcome !== 'uploaded' || key === undefined) continue;
		const notes: string[] = [];
		if (unrecorded.has(key))
			notes.push(
				"The file was uploaded, but n8n's database did not take its key: the next run will upload it again.",
			);
		if (end.warning) notes.push(end.warning);
		output.json.warnings = [...(output.json.warnings as string[]), ...notes];
	}
}
