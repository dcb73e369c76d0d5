import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { AdaptiveLimiter, runPool } from '../../transport/limiter';
import { RateGate } from '../../transport/rateGate';
import type { RateSignals } from '../../transport/upload';
import { retryPolicyFrom } from '../../transport/retryPolicy';
import type { NodeError } from '../items';
import { asNodeError } from '../items';
import { readAccount } from '../account';
import { uploadFailureAdvice, WAIT_LIMIT } from './advice';
import { failedOutput, outcomeHint } from './fileOutput';
import type { UploadJob } from './itemJobs';
import { itemJobs } from './itemJobs';
import type { SkipPlan } from './skipPlan';
import { planSkips } from './skipPlan';
import { uploadDescription } from './upload.description';
import type { UploadOptions } from './uploadOptions';
import {
	AUTO_MAX_CONCURRENCY,
	AUTOMATIC_CONCURRENCY,
	readUploadOptions,
	START_CONCURRENCY,
} from './uploadOptions';
import { runUploadJob } from './uploadJob';

export const description: INodeProperties[] = uploadDescription;

/** What became of one item: its files' outputs in field order, or its error. */
interface ItemOutcome {
	outputs: INodeExecutionData[];
	error?: NodeError;
}

/**
 * Checks every item first (event, album, fields), then uploads the files with up to "Concurrent
 * Uploads" at once: the limiter starts with a few and grows while the answers stay good (see
 * transport/limiter.ts). The output keeps the input's order and pairing. Without Continue On Fail
 * the node behaves as if it went item by item: files of items after the first failing one are not
 * uploaded, and that item's error is thrown.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const errorOutput = this.getNode().onError === 'continueErrorOutput';
	let options: UploadOptions;
	try {
		// the node-wide options (Concurrent Uploads above all) are those of the first item
		options = readUploadOptions(this, 0);
	} catch (error) {
		const nodeError = asNodeError(this, error, 0);
		if (!continueOnFail) throw nodeError;
		return items.map((_, itemIndex) => failedOutput(nodeError, itemIndex, errorOutput));
	}
	const policy = retryPolicyFrom(options);
	const account = await readAccount(this, policy, {
		advice: uploadFailureAdvice,
		waitLimit: WAIT_LIMIT,
	});
	const outcomes: ItemOutcome[] = items.map(() => ({ outputs: [] }));

	const jobs: UploadJob[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			jobs.push(...(await itemJobs(this, account, itemIndex)));
		} catch (error) {
			outcomes[itemIndex].error = asNodeError(this, error, itemIndex);
			if (!continueOnFail) break;
		}
	}

	// Automatic (0 or no option): from a few up to many. A number: that many from the start.
	const concurrency = options.concurrency ?? AUTOMATIC_CONCURRENCY;
	const limiter =
		concurrency === AUTOMATIC_CONCURRENCY
			? new AdaptiveLimiter(AUTO_MAX_CONCURRENCY, { start: START_CONCURRENCY })
			: new AdaptiveLimiter(concurrency);
	const slots = new Map<UploadJob, number>();
	for (const job of jobs) {
		const outputs = outcomes[job.itemIndex].outputs;
		slots.set(job, outputs.length);
		outputs.push({ json: {} });
	}
	// Skip Files Uploaded Before: every key computed and checked at once, before the uploads
	const plan = await planSkips(this, jobs, continueOnFail);
	let stopAt = plan?.failedItem ?? Number.POSITIVE_INFINITY;
	// One request rate for the whole run, learned from the 429s (transport/rateGate.ts). The first
	// 429 also pauses new starts and halves the limiter; after that the gate's rate answers them.
	// A pause is a wait too: never longer than Max Total Wait.
	const gate = new RateGate({ now: Date.now, sleep });
	const signals: RateSignals = {
		paced: async () => await gate.take(),
		throttled: (retryAfterMs, sentAt) => {
			const ms =
				retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, policy.maxTotalWaitMs);
			if (gate.rate() === undefined) limiter.throttled(ms);
			gate.throttled(sentAt, ms);
		},
		succeeded: (signMs) => {
			gate.succeeded(signMs !== undefined);
			limiter.succeeded(signMs);
		},
	};

	await runPool(jobs.length, limiter, async (index) => {
		const job = jobs[index];
		const file = plan?.files.get(job);
		try {
			if (job.itemIndex > stopAt) return;
			if (file && 'error' in file) throw file.error;
			const json = await runUploadJob(this, account, job, signals, file);
			outcomes[job.itemIndex].outputs[slots.get(job)!] = {
				json,
				pairedItem: { item: job.itemIndex },
			};
		} catch (error) {
			const outcome = outcomes[job.itemIndex];
			const nodeError = asNodeError(this, error, job.itemIndex);
			outcome.error ??= nodeError;
			if (!continueOnFail) stopAt = Math.min(stopAt, job.itemIndex);
			else
				outcome.outputs[slots.get(job)!] = failedOutput(
					nodeError,
					job.itemIndex,
					errorOutput,
					job.facts,
				);
		} finally {
			if (file && 'settle' in file) file.settle(false); // no-op once the file was uploaded
		}
	});

	if (plan) await recordHistory(this, plan, outcomes);

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome.error && !continueOnFail) throw outcome.error;
		if (outcome.error && outcome.outputs.length === 0)
			output.push(failedOutput(outcome.error, itemIndex, errorOutput));
		else output.push(...outcome.outputs);
	}
	const hint = outcomeHint(output);
	if (hint) this.addExecutionHints(hint);
	return output;
}

/** The end of Skip Files Uploaded Before: what the history could not record, and its warning. */
async function recordHistory(ctx: IExecuteFunctions, plan: SkipPlan, outcomes: ItemOutcome[]) {
	const end = await plan.finish();
	const unrecorded = new Set(end.unrecorded);
	if (end.warning) {
		ctx.addExecutionHints({ message: end.warning, type: 'warning', location: 'outputPane' });
	}
	for (const { json } of outcomes.flatMap((outcome) => outcome.outputs)) {
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
