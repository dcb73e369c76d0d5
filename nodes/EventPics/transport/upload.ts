import type { IExecuteFunctions } from 'n8n-workflow';

import { shownSize } from '../helpers/size';
import { headerText } from '../helpers/text';
import { requestUploadUrl } from './api';
import type { RateSignals } from './pacing';
import { NO_SIGNALS } from './pacing';
import type { PutTry } from './put';
import { isStream, sendPut } from './put';
import { successOrFailure } from './request';
import { refusedByEgress, refusedUploadAddress } from './uploadAddress';
import type { RetryPolicy, AttemptOutcome, RetryResult } from './retry';
import type { EventPicsContext, HttpAnswer } from './request';
import { isTransient, withRetries } from './retry';

export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;
export type UploadBody = Buffer | BinaryStream;

interface UploadSpec {
	linkId: string;
	albumId?: string;
	fileName: string;
	takenAt?: number;
	contentType: string;
	size: number;
	/** Allow Internal Addresses: the upload address may be internal though the Base URL is not. */
	allowInternal?: boolean;
	/** The body of each try, from its owner (a stream is spent once sent). */
	body: TryBodies;
}

/**
 * Who owns the body of an upload (actions/photo/fileBody.ts): it hands out the body of each try
 * and closes it when the try has ended. Transport only sends it.
 */
export interface TryBodies {
	forTry: () => Promise<UploadBody>;
	endTry: () => void;
}

interface UploadReport {
	statusCode: number;
	etag?: string;
	/** Tries of the sign-and-PUT sequence, the successful one included. */
	attempts: number;
	/** Upload addresses asked for (a refused or expired one is replaced, never replayed). */
	uploadUrlRequests: number;
	/** A connection broke after the whole file was sent; the retry may have stored it twice. */
	possibleDuplicate: boolean;
	/** Tries that broke off while the file was moving, and were sent again: what happened to each. */
	brokenTransfers: string[];
}

/** An upload address is reused for a retry only while it is surely still valid (~300 s). */
const UPLOAD_URL_REUSE_MS = 240_000;
/** Fresh addresses asked for after a 403 before the PUT's refusal is taken as final. */
const MAX_ADDRESS_REFRESHES = 2;

/** Where a call goes and with which key. */
interface Service {
	ctx: EventPicsContext;
	baseUrl: string;
	apiKey: string;
}

/**
 * The two-step upload: ask `getuploadurl` just before each PUT, PUT the body streamed to the
 * whole address unchanged, with Content-Type and Content-Length and nothing else of ours.
 * Retries what is safe; never replays a refused or expired address.
 */
export async function uploadFile(
	ctx: EventPicsContext,
	baseUrl: string,
	apiKey: string,
	spec: UploadSpec,
	policy: RetryPolicy,
	signals: RateSignals = NO_SIGNALS,
): Promise<RetryResult<UploadReport> & { brokenTransfers: string[] }> {
	const tries = new UploadTries({ ctx, baseUrl, apiKey }, spec, policy, signals);
	const result = await withRetries(policy, async (attempt) => await tries.attempt(attempt));
	return { ...result, brokenTransfers: tries.brokenTransfers };
}

/** The state of one file's tries: its current upload address and what the tries have seen. */
class UploadTries {
	readonly brokenTransfers: string[] = [];

	private uploadUrl: string | undefined;

	private issuedAt = 0;

	private uploadUrlRequests = 0;

	private refreshes = 0;

	private possibleDuplicate = false;

	constructor(
		private readonly service: Service,
		private readonly spec: UploadSpec,
		private readonly policy: RetryPolicy,
		private readonly signals: RateSignals,
	) {}

	/** One try: a fresh address when needed, then the PUT. */
	async attempt(attemptNumber: number): Promise<AttemptOutcome<UploadReport>> {
		if (this.uploadUrl === undefined || Date.now() - this.issuedAt > UPLOAD_URL_REUSE_MS) {
			const refused = await this.askAddress();
			if (refused) return refused;
		}
		return await this.put(attemptNumber, this.uploadUrl!);
	}

	/** Asks `getuploadurl` (paced by the run's rate) and checks the address; a failure, or nothing. */
	private async askAddress(): Promise<AttemptOutcome<UploadReport> | undefined> {
		const { ctx, baseUrl, apiKey } = this.service;
		await this.signals.paced();
		this.uploadUrlRequests++;
		const askedAt = Date.now();
		const signed = await requestUploadUrl(ctx, baseUrl, apiKey, this.spec, this.policy);
		if (!signed.ok) {
			if (signed.failure.statusCode === 429)
				this.signals.throttled(signed.failure.retryAfterMs, askedAt);
			return { failure: signed.failure, retry: isTransient(signed.failure) };
		}
		this.signals.succeeded(Date.now() - askedAt);
		const allowInternal = this.spec.allowInternal === true;
		const refused =
			refusedUploadAddress(signed.value, baseUrl, allowInternal) ??
			(await refusedByEgress(ctx, signed.value, baseUrl, allowInternal));
		if (refused) return { failure: refused, retry: false };
		this.uploadUrl = signed.value;
		this.issuedAt = Date.now();
		return undefined;
	}

	/** One PUT of the body its owner hands out for this try, closed by its owner when it ends. */
	private async put(attemptNumber: number, url: string): Promise<AttemptOutcome<UploadReport>> {
		const { spec } = this;
		const body = await spec.body.forTry();
		const putAt = Date.now();
		let sending: PutTry;
		try {
			const put = { url, body, contentType: spec.contentType, size: spec.size };
			const { timeoutMs, timeoutName } = this.policy;
			sending = await sendPut(this.service.ctx, { ...put, timeoutMs, timeoutName });
		} finally {
			spec.body.endTry();
		}
		const { result: sent, sentBytes, bodySent, cause } = sending;
		if (sent.ok) return this.answered(attemptNumber, sent.value, putAt);
		// The whole file went out and no answer came back: the storage may have it already.
		if (bodySent) this.possibleDuplicate = true;
		// (a try that sent the whole file is reported as a possible duplicate instead)
		if (isStream(body) && sentBytes > 0 && !bodySent) {
			this.brokenTransfers.push(
				`Try ${attemptNumber} of the upload was moving when it broke off: ${shownSize(sentBytes)} of ${shownSize(spec.size)} had been sent when ${cause}.`,
			);
		}
		return { failure: sent.failure, retry: isTransient(sent.failure) };
	}

	/** What the storage's answer to the PUT means: done, or a failure and whether to try again. */
	private answered(
		attemptNumber: number,
		answer: HttpAnswer,
		putAt: number,
	): AttemptOutcome<UploadReport> {
		const checked = successOrFailure('put', answer);
		if (checked.ok) {
			this.signals.succeeded();
			return {
				done: {
					statusCode: checked.value.statusCode,
					etag: headerText(checked.value.headers, 'etag'),
					attempts: attemptNumber,
					uploadUrlRequests: this.uploadUrlRequests,
					possibleDuplicate: this.possibleDuplicate,
					brokenTransfers: this.brokenTransfers,
				},
			};
		}
		const { failure } = checked;
		if (failure.statusCode === 429) this.signals.throttled(failure.retryAfterMs, putAt);
		if (failure.statusCode !== 403) return { failure, retry: isTransient(failure) };
		// Expired or refused signature: never replay it, ask for a fresh address at once.
		this.uploadUrl = undefined;
		this.refreshes++;
		return { failure, retry: this.refreshes <= MAX_ADDRESS_REFRESHES, waitFirst: false };
	}
}
