import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { AdaptiveLimiter, runPool } from '../../transport/limiter';
import { retryPolicyFrom } from '../../transport/retry';
import type { NodeError } from '../items';
import { asNodeError, errorItem } from '../items';
import { openSession } from '../session';
import { confirmRecorded } from './dedupe';
import type { UploadJob, UploadOptions } from './planItem';
import { planItem } from './planItem';
import { DEFAULT_CONCURRENCY, uploadDescription } from './upload.description';
import { runUploadJob } from './uploadJob';

export const description: INodeProperties[] = uploadDescription;

/** What became of one item: its files' outputs in field order, or its error. */
interface ItemOutcome {
	outputs: INodeExecutionData[];
	error?: NodeError;
}

/**
 * Checks every item first (event, album, fields), then uploads the files with up to "Concurrent
 * Uploads" at once. The output keeps the input's order and pairing. Without Continue On Fail the
 * node behaves as if it went item by item: files of items after the first failing one are not
 * uploaded, and that item's error is thrown.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as UploadOptions;
	const session = await openSession(this, retryPolicyFrom(options));
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const outcomes: ItemOutcome[] = items.map(() => ({ outputs: [] }));

	const jobs: UploadJob[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			jobs.push(...(await planItem(this, session, itemIndex)));
		} catch (error) {
			outcomes[itemIndex].error = asNodeError(this, error, itemIndex);
			if (!continueOnFail) break;
		}
	}

	const limiter = new AdaptiveLimiter(options.concurrency ?? DEFAULT_CONCURRENCY);
	const slots = new Map<UploadJob, number>();
	for (const job of jobs) {
		const outputs = outcomes[job.itemIndex].outputs;
		slots.set(job, outputs.length);
		outputs.push({ json: {} });
	}
	let stopAt = Number.POSITIVE_INFINITY;
	const signals = { throttled: (ms: number | undefined) => limiter.throttled(ms), succeeded: () => limiter.succeeded() };

	await runPool(
		jobs.length,
		limiter,
		async (index) => {
			const job = jobs[index];
			if (job.itemIndex > stopAt) return;
			try {
				const json = await runUploadJob(this, session, job, signals);
				outcomes[job.itemIndex].outputs[slots.get(job)!] = { json, pairedItem: { item: job.itemIndex } };
			} catch (error) {
				const outcome = outcomes[job.itemIndex];
				const nodeError = asNodeError(this, error, job.itemIndex);
				outcome.error ??= nodeError;
				if (!continueOnFail) stopAt = Math.min(stopAt, job.itemIndex);
				else outcome.outputs[slots.get(job)!] = errorItem(nodeError, job.itemIndex);
			}
		},
	);

	await confirmRecorded(this);

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome.error && !continueOnFail) throw outcome.error;
		if (outcome.error && outcome.outputs.length === 0) output.push(errorItem(outcome.error, itemIndex));
		else output.push(...outcome.outputs);
	}
	return output;
}
