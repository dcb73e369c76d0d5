import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { dedupeKey, fileKey } from './dedupe';
import type { FileSource } from './fileSources';
import type { HistoryEnd, HistoryTiming } from './history';
import { HISTORY_TIMING, RunHistory } from './history';
import type { UploadJob } from './itemJobs';

/** Files whose keys are computed at once before the check (each is read once, start to end). */
const KEYS_AT_ONCE = 8;
/**
 * Files that n8n's binary data mode hands over whole (`database`) stay in memory from their key to
 * their upload while they fit in this much together; larger ones are read again for the upload.
 */
const KEEP_READ_BYTES = 32 * 1024 * 1024;
/** `uploadedBy` of a file the history knows. */
const BEFORE = -1;

export type Turn = { skip: false } | { skip: true; reason: string };

/** Skip Files Uploaded Before for one file of the run. */
export interface FileDedupe {
	key: string;
	/** The source its key was computed from: a URL is not fetched again. */
	source: FileSource;
	/** Whether the file goes up; an earlier file of the run with the same key is waited for. */
	turn(): Promise<Turn>;
	/** Called once the job ended: `uploaded` when the storage confirmed the file. */
	settle(uploaded: boolean): void;
}

export interface SkipPlan {
	files: Map<UploadJob, FileDedupe | { error: unknown }>;
	/** Without Continue On Fail: the first item whose key could not be computed (its file failed). */
	failedItem?: number;
	finish(): Promise<HistoryEnd>;
}

const reasonBefore =
	'This node uploaded this file to this event and album before (Skip Files Uploaded Before).';
const reasonInRun = (itemIndex: number) =>
	`Input item ${itemIndex} of this run has the same file for this event and album, and it was uploaded (Skip Files Uploaded Before).`;

const NEW_HISTORY =
	"EventPics: this run began the node's history of uploaded files (Skip Files Uploaded Before). Files uploaded before the option was on are not in it, so any of them in this run went up again.";

type Prepared = { key: string; source: FileSource } | { error: unknown };

/**
 * Computes the key of every file with the option on (a URL is downloaded once, its stored copy is
 * reused for the upload), asks the node's history of this account (Base URL and API key) about all
 * of them at once, and decides per file. Files of one run with the same key go up once: the first
 * tries, the next waits for its outcome.
 */
export async function planSkips(
	ctx: IExecuteFunctions,
	credential: { baseUrl: string; apiKey: string },
	jobs: UploadJob[],
	continueOnFail: boolean,
	timing: HistoryTiming = HISTORY_TIMING,
): Promise<SkipPlan | undefined> {
	const skipping = jobs.filter((job) => job.options.skipDuplicates === true);
	if (skipping.length === 0) return undefined;
	const { prepared, failedItem } = await prepareKeys(skipping, continueOnFail);
	const history = new RunHistory(ctx, credential, timing);
	const keyed = skipping.filter((job) => {
		const file = prepared.get(job);
		return file && 'key' in file && (failedItem === undefined || job.itemIndex <= failedItem);
	});
	const known = await history.check(keyed.map((job) => (prepared.get(job) as { key: string }).key));
	const chains = new Map<string, Promise<number | undefined>>();
	const files: SkipPlan['files'] = new Map();
	for (const job of keyed) {
		const { key, source } = prepared.get(job) as { key: string; source: FileSource };
		const previous = chains.get(key) ?? Promise.resolve(known.has(key) ? BEFORE : undefined);
		let pass!: (uploadedBy: number | undefined) => void;
		chains.set(key, new Promise((resolve) => (pass = resolve)));
		files.set(job, fileTurn(job, { key, source }, previous, pass, history));
	}
	for (const job of skipping) {
		const file = prepared.get(job);
		if (file && 'error' in file) files.set(job, file);
	}
	return { files, failedItem, finish: async () => await history.finish() };
}

/** Every file's key, KEYS_AT_ONCE at a time; without Continue On Fail a failing item stops the later ones. */
async function prepareKeys(skipping: UploadJob[], continueOnFail: boolean) {
	const prepared = new Map<UploadJob, Prepared>();
	let failedItem: number | undefined;
	let keptBytes = 0;
	const prepare = async (job: UploadJob) => {
		if (failedItem !== undefined && job.itemIndex > failedItem) return;
		try {
			const source = await job.source();
			const key = dedupeKey(job.linkId, job.albumId, await fileKey(job, source));
			if (source.dispose && keptBytes + source.size <= KEEP_READ_BYTES) keptBytes += source.size;
			else source.dispose?.(); // read whole (database mode): read again for the upload
			prepared.set(job, { key, source });
		} catch (error) {
			prepared.set(job, { error });
			if (!continueOnFail) failedItem = Math.min(failedItem ?? job.itemIndex, job.itemIndex);
		}
	};
	let next = 0;
	const worker = async () => {
		while (next < skipping.length) await prepare(skipping[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(KEYS_AT_ONCE, skipping.length) }, worker));
	return { prepared, failedItem };
}

/**
 * A file's turn among the files with its key: it waits for the one before it (`previous`: who
 * uploaded it, if anyone) and tells the next one (`pass`) once its own upload is settled.
 */
function fileTurn(
	job: UploadJob,
	file: { key: string; source: FileSource },
	previous: Promise<number | undefined>,
	pass: (uploadedBy: number | undefined) => void,
	history: RunHistory,
): FileDedupe {
	let settled = false;
	const settle = (uploadedBy: Promise<number | undefined> | number | undefined) => {
		if (settled) return;
		settled = true;
		void Promise.resolve(uploadedBy).then(pass);
	};
	return {
		...file,
		turn: async () => {
			const uploadedBy = await previous;
			if (uploadedBy === undefined) return { skip: false };
			settle(uploadedBy);
			return {
				skip: true,
				reason: uploadedBy === BEFORE ? reasonBefore : reasonInRun(uploadedBy),
			};
		},
		settle: (uploaded) => {
			if (uploaded) history.uploaded(file.key);
			settle(uploaded ? job.itemIndex : previous);
		},
	};
}

/** The end of Skip Files Uploaded Before: what the history could not record, and its warning. */
export async function recordHistory(
	ctx: IExecuteFunctions,
	plan: SkipPlan,
	outputs: INodeExecutionData[],
) {
	const end = await plan.finish();
	const unrecorded = new Set(end.unrecorded);
	if (end.warning) {
		ctx.addExecutionHints({ message: end.warning, type: 'warning', location: 'outputPane' });
	}
	if (end.isNew)
		ctx.addExecutionHints({ message: NEW_HISTORY, type: 'info', location: 'outputPane' });
	for (const { json } of outputs) {
		const key = json.outcome === 'uploaded' ? json.dedupeKey : undefined;
		if (typeof key !== 'string') continue;
		const notes: string[] = [];
		if (unrecorded.has(key))
			notes.push(
				"The file was uploaded, but n8n's database did not take its key: the next run will upload it again.",
			);
		if (end.warning) notes.push(end.warning);
		if (notes.length > 0) json.warnings = [...(json.warnings as string[]), ...notes];
	}
}
