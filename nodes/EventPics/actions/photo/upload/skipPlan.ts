import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { dedupeKey, fileKey } from './dedupe';
import type { FileSource } from './fileSources';
import type { HistoryEnd, HistoryTiming } from './history';
import { HISTORY_TIMING, RunHistory } from './history';
import { claim, claimKey, claimOf, joinRuns } from './inFlight';
import type { UploadJob } from './itemJobs';

/** Files whose keys are computed at once before the check (each is read once, start to end). */
const KEYS_AT_ONCE = 8;
/**
 * Files that n8n's binary data mode hands over whole (`database`) stay in memory from their key to
 * their upload while they fit in this much together; larger ones are read again for the upload.
 */
const KEEP_READ_BYTES = 32 * 1024 * 1024;

export type Turn = { skip: false } | { skip: true; reason: string };

/** Skip Files Uploaded Before for one file of the run. */
export interface FileDedupe {
	key: string;
	/** The source its key was computed from: a URL is not fetched again. */
	source: FileSource;
	/** Whether the file goes up; a file another item or execution is uploading waits for it. */
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
	'This workflow uploaded this file to this event and album before (Skip Files Uploaded Before).';
const reasonInRun = (itemIndex: number) =>
	`Input item ${itemIndex} of this run has the same file for this event and album, and it was uploaded (Skip Files Uploaded Before).`;
const reasonElsewhere = (executionId: string, arrived: boolean) =>
	arrived
		? `Execution ${executionId} of this workflow uploaded the same file to this event and album while this one ran (Skip Files Uploaded Before).`
		: `Execution ${executionId} of this workflow is uploading the same file to this event and album (Skip Files Uploaded Before); if it fails there, a later run takes it.`;

const NEW_HISTORY =
	"EventPics: this run began the workflow's history of uploaded files (Skip Files Uploaded Before). Files uploaded before the option was on are not in it, so any of them in this run went up again.";

type Prepared = { key: string; source: FileSource } | { error: unknown };

/**
 * Computes the key of every file with the option on (a URL is downloaded once, its stored copy is
 * reused for the upload), asks the workflow's history of this account (Base URL and API key) about
 * all of them at once, and claims the others in this n8n process (upload/inFlight.ts), in item
 * order: a file that an earlier item or another execution holds waits for that upload and is skipped
 * once it arrived. Confirmed uploads are recorded in batches as the run goes.
 */
export async function planSkips(
	ctx: IExecuteFunctions,
	credential: { baseUrl: string; apiKey: string },
	jobs: UploadJob[],
	continueOnFail: boolean,
	timing: HistoryTiming = HISTORY_TIMING,
): Promise<SkipPlan | undefined> {
	const skipping = jobs.filter((job) => job.options.skip !== undefined);
	if (skipping.length === 0) return undefined;
	const { prepared, failedItem } = await prepareKeys(skipping, continueOnFail);
	const history = new RunHistory(ctx, credential, timing);
	const keyed = skipping.filter((job) => {
		const file = prepared.get(job);
		return file && 'key' in file && (failedItem === undefined || job.itemIndex <= failedItem);
	});
	const run = joinRuns();
	const keys = keyed.map((job) => (prepared.get(job) as { key: string }).key);
	const known = await history.check(keys).catch((error: unknown) => {
		run.leave();
		throw error;
	});
	const owned = new Map<string, ReturnType<typeof claim>>();
	history.onRecorded = (keys) => keys.forEach((key) => owned.get(key)?.recorded());
	const files: SkipPlan['files'] = new Map();
	for (const job of keyed) {
		const file = prepared.get(job) as { key: string; source: FileSource };
		const where = claimKey(ctx.getWorkflow().id, history.entryOf(file.key));
		const own = () => {
			const handle = claim(where, ctx.getExecutionId(), job.itemIndex);
			owned.set(file.key, handle);
			return handle;
		};
		files.set(job, fileTurn(ctx, file, known.has(file.key), where, own, history));
	}
	for (const job of skipping) {
		const file = prepared.get(job);
		if (file && 'error' in file) files.set(job, file);
	}
	const finish = async () => {
		try {
			return await history.finish();
		} finally {
			run.leave();
		}
	};
	return { files, failedItem, finish };
}

/**
 * One file's place among the uploads: skipped when the history knows it; else it holds the claim on
 * its key in this process (taken now, in item order), or waits for whoever holds it: skipped once
 * that upload arrived, tried when it did not (unless another has taken the claim over meanwhile).
 */
function fileTurn(
	ctx: IExecuteFunctions,
	file: { key: string; source: FileSource },
	known: boolean,
	where: string,
	own: () => ReturnType<typeof claim>,
	history: RunHistory,
): FileDedupe {
	const held = known ? undefined : claimOf(where);
	let mine = known || held ? undefined : own();
	const turn = async (): Promise<Turn> => {
		if (known) return { skip: true, reason: reasonBefore };
		if (!held) return { skip: false };
		const arrived = await held.arrived;
		if (arrived) {
			const sameRun = held.executionId === ctx.getExecutionId();
			const reason = sameRun
				? reasonInRun(held.itemIndex)
				: reasonElsewhere(held.executionId, true);
			return { skip: true, reason };
		}
		const next = claimOf(where);
		if (next) return { skip: true, reason: reasonElsewhere(next.executionId, false) };
		mine = own();
		return { skip: false };
	};
	const settle = (uploaded: boolean) => {
		const holding = mine;
		mine = undefined; // once
		if (!holding) return;
		if (uploaded) history.uploaded(file.key);
		holding.settle(uploaded);
	};
	return { ...file, turn, settle };
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
