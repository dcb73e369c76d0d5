import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Pacing } from '../../transport/pacing';
import { runPacing, runPool } from '../../transport/pacing';
import { retryPolicyFrom } from '../../transport/retry';
import type { NodeError } from '../items';
import { asNodeError } from '../items';
import type { Account } from '../account';
import { readAccount } from '../account';
import { UPLOAD_ADVICE, WAIT_LIMIT } from './upload/advice';
import { sanitizeFileName } from '../../helpers/fileName';
import type { FileDetails } from './upload/fileOutput';
import { failedOutput, outcomeHint, simplifiedOutput } from './upload/fileOutput';
import type { UploadJob } from './upload/itemJobs';
import { itemJobs } from './upload/itemJobs';
import type { SkipPlan } from './upload/skipPlan';
import { planSkips, recordHistory } from './upload/skipPlan';
import { uploadDescription } from './upload.description';
import type { UploadOptions } from './upload/uploadOptions';
import { concurrencyOf, readUploadOptions, TIMEOUT_NAME } from './upload/uploadOptions';
import { runUploadJob } from './upload/uploadJob';

export const description: INodeProperties[] = uploadDescription;

/** What became of one item: its files' outputs in field order, or its error. */
interface ItemOutcome {
	outputs: INodeExecutionData[];
	error?: NodeError;
}

/** How failures end up: Continue On Fail, and whether errors go to the error output. */
interface FailMode {
	continueOnFail: boolean;
	errorOutput: boolean;
}

/** One run of the upload, as its steps share it. */
interface UploadRun {
	account: Account;
	jobs: UploadJob[];
	outcomes: ItemOutcome[];
	/** Each job's place among its item's outputs (the order of its binary fields). */
	slots: Map<UploadJob, number>;
	plan: SkipPlan | undefined;
	pacing: Pacing;
	mode: FailMode;
}

/**
 * Checks every item first (event, album, fields), then uploads the files with up to "Concurrent
 * Uploads" at once: the pacer starts with a few and grows while the answers stay good (see
 * transport/pacing.ts). The output keeps the input's order and pairing. Without Continue On Fail
 * the node behaves as if it went item by item: files of items after the first failing one are not
 * uploaded, and that item's error is thrown.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const mode: FailMode = {
		continueOnFail: this.continueOnFail(),
		errorOutput: this.getNode().onError === 'continueErrorOutput',
	};
	let options: UploadOptions;
	try {
		// the node-wide options (Concurrent Uploads above all) are those of the first item
		options = readUploadOptions(this, 0);
	} catch (error) {
		const nodeError = asNodeError(this, error, 0);
		if (!mode.continueOnFail) throw nodeError;
		return items.map((_, itemIndex) => failedOutput(nodeError, itemIndex, mode.errorOutput));
	}
	const policy = retryPolicyFrom(options, TIMEOUT_NAME);
	const account = await readAccount(this, policy, {
		advice: UPLOAD_ADVICE,
		waitLimit: WAIT_LIMIT,
	});
	const outcomes: ItemOutcome[] = items.map(() => ({ outputs: [] }));
	const jobs = await planJobs(this, account, outcomes, mode, options);
	const run: UploadRun = {
		account,
		jobs,
		outcomes,
		slots: reserveSlots(jobs, outcomes),
		// Skip Files Uploaded Before: every key computed and checked at once, before the uploads
		plan: await planSkips(this, account, jobs, mode.continueOnFail),
		pacing: runPacing(concurrencyOf(options), policy.maxTotalWaitMs),
		mode,
	};
	await uploadAll(this, run);
	if (run.plan) await recordHistory(this, run.plan, outputsOf(outcomes));
	return collect(this, outcomes, mode);
}

/**
 * Every item's jobs, checked before any upload (item 0's options are those read for the run); a
 * failing item stops the rest without Continue On Fail.
 */
async function planJobs(
	ctx: IExecuteFunctions,
	account: Account,
	outcomes: ItemOutcome[],
	mode: FailMode,
	firstOptions: UploadOptions,
): Promise<UploadJob[]> {
	const jobs: UploadJob[] = [];
	for (let itemIndex = 0; itemIndex < outcomes.length; itemIndex++) {
		const options = itemIndex === 0 ? firstOptions : undefined;
		try {
			jobs.push(...(await itemJobs(ctx, account, itemIndex, options)));
		} catch (error) {
			outcomes[itemIndex].error = asNodeError(ctx, error, itemIndex);
			if (!mode.continueOnFail) break;
		}
	}
	return jobs;
}

/** A place for every job's output, in its item's field order, whenever the upload ends. */
function reserveSlots(jobs: UploadJob[], outcomes: ItemOutcome[]): Map<UploadJob, number> {
	const slots = new Map<UploadJob, number>();
	for (const job of jobs) {
		const outputs = outcomes[job.itemIndex].outputs;
		slots.set(job, outputs.length);
		outputs.push({ json: {} });
	}
	return slots;
}

/** Uploads every job under the run's pacing; each outcome goes into its item's slot. */
async function uploadAll(ctx: IExecuteFunctions, run: UploadRun): Promise<void> {
	const { jobs, outcomes, slots, plan, mode } = run;
	let stopAt = plan?.failedItem ?? Number.POSITIVE_INFINITY;
	await runPool(jobs.length, run.pacing.limiter, async (index) => {
		const job = jobs[index];
		const file = plan?.files.get(job);
		const outcome = outcomes[job.itemIndex];
		try {
			if (job.itemIndex > stopAt) return;
			if (file && 'error' in file) throw file.error;
			const json = await runUploadJob(ctx, run.account, job, run.pacing.signals, file);
			outcome.outputs[slots.get(job)!] = { json, pairedItem: { item: job.itemIndex } };
		} catch (error) {
			const nodeError = asNodeError(ctx, error, job.itemIndex);
			outcome.error ??= nodeError;
			if (!mode.continueOnFail) stopAt = Math.min(stopAt, job.itemIndex);
			else
				outcome.outputs[slots.get(job)!] = failedOutput(
					nodeError,
					job.itemIndex,
					mode.errorOutput,
					job.details,
				);
		} finally {
			if (file && 'settle' in file) file.settle(false); // no-op once the file was uploaded
		}
	});
}

/** The file a failed item names, where its check failed before it had jobs: its first named binary file. */
function itemFile(ctx: IExecuteFunctions, itemIndex: number): FileDetails {
	const binaries = ctx.getInputData()[itemIndex]?.binary ?? {};
	const named = Object.entries(binaries).find(([, binary]) => binary?.fileName);
	if (!named) return {};
	return { binaryField: named[0], fileName: sanitizeFileName(named[1].fileName!) || null };
}

function outputsOf(outcomes: ItemOutcome[]): INodeExecutionData[] {
	return outcomes.flatMap((outcome) => outcome.outputs);
}

/** The node's output in item order; without Continue On Fail the first item's error is thrown. */
function collect(
	ctx: IExecuteFunctions,
	outcomes: ItemOutcome[],
	mode: FailMode,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if (outcome.error && !mode.continueOnFail) throw outcome.error;
		if (outcome.error && outcome.outputs.length === 0)
			output.push(
				failedOutput(outcome.error, itemIndex, mode.errorOutput, itemFile(ctx, itemIndex)),
			);
		else output.push(...outcome.outputs);
	});
	const hint = outcomeHint(output);
	if (hint) ctx.addExecutionHints(hint);
	return output.map((entry) => simplified(ctx, entry));
}

/** An output item as its item's Simplify asks: the fields a user acts on, or all of them. */
function simplified(ctx: IExecuteFunctions, entry: INodeExecutionData): INodeExecutionData {
	const itemIndex = (entry.pairedItem as { item: number } | undefined)?.item ?? 0;
	if (entry.error || !ctx.getNodeParameter('simplify', itemIndex, true)) return entry;
	return { ...entry, json: simplifiedOutput(entry.json) };
}
