import type { IExecuteFunctions } from 'n8n-workflow';

import { shownSize } from '../helpers/size';
import { headerText } from './answer';
import { requestUploadUrl } from './api';
import type { PutTry } from './put';
import { isStream, sendPut } from './put';
import { successOrFailure } from './request';
import { refusedUploadAddress } from './uploadAddress';
import type { RetryPolicy } from './retryPolicy';
import type { EventPicsContext } from './types';
import type { AttemptOutcome, RetryResult } from './retryLoop';
import { isTransient, withRetries } from './retryLoop';

export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;
export type UploadBody = Buffer | BinaryStream;

export interface UploadSpec {
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

export interface UploadReport {
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

/**
 * The run's shared pacing: a wait for the learned request rate before each getuploadurl call, and
 * feedback for it and the concurrency limiter: every 429 (with when its call was sent), every good
 * answer (with the time getuploadurl took; none for the PUT).
 */
export interface RateSignals {
	paced: () => Promise<void>;
	throttled: (retryAfterMs: number | undefined, sentAt: number) => void;
	succeeded: (signMs?: number) => void;
}

const NO_SIGNALS: RateSignals = {
	paced: async () => undefined,
	throttled: () => undefined,
	succeeded: () => undefined,
};

/** An upload address is reused for a retry only while it is surely still valid (~300 s). */
const UPLOAD_URL_REUSE_MS = 240_000;
/** Fresh addresses asked for after a 403 before the PUT's refusal is taken as final. */
const MAX_ADDRESS_REFRESHES = 2;

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
	let uploadUrl: string | undefined;
	const brokenTransfers: string[] = [];
	let issuedAt = 0;
	let uploadUrlRequests = 0;
	let refreshes = 0;
	let possibleDuplicate = false;

	const attempt = async (attemptNumber: number): Promise<AttemptOutcome<UploadReport>> => {
		if (uploadUrl === undefined || Date.now() - issuedAt > UPLOAD_URL_REUSE_MS) {
			await signals.paced();
			uploadUrlRequests++;
			const askedAt = Date.now();
			const signed = await requestUploadUrl(ctx, baseUrl, apiKey, spec, policy.timeoutMs);
			if (!signed.ok) {
				if (signed.failure.statusCode === 429)
					signals.throttled(signed.failure.retryAfterMs, askedAt);
				return { failure: signed.failure, retry: isTransient(signed.failure) };
			}
			signals.succeeded(Date.now() - askedAt);
			const refused = refusedUploadAddress(signed.value, baseUrl, spec.allowInternal === true);
			if (refused) return { failure: refused, retry: false };
			uploadUrl = signed.value;
			issuedAt = Date.now();
		}

		const body = await spec.body.forTry();
		const putAt = Date.now();
		let sending: PutTry;
		try {
			sending = await sendPut(ctx, {
				url: uploadUrl,
				body,
				contentType: spec.contentType,
				size: spec.size,
				timeoutMs: policy.timeoutMs,
			});
		} finally {
			spec.body.endTry();
		}
		const { result: sent, sentBytes, bodySent, cause } = sending;

		if (!sent.ok) {
			// The whole file went out and no answer came back: the storage may have it already.
			if (bodySent) possibleDuplicate = true;
			// (a try that sent the whole file is reported as a possible duplicate instead)
			if (isStream(body) && sentBytes > 0 && !bodySent) {
				brokenTransfers.push(
					`Try ${attemptNumber} of the upload was moving when it broke off: ${shownSize(sentBytes)} of ${shownSize(spec.size)} had been sent when ${cause}.`,
				);
			}
			return { failure: sent.failure, retry: isTransient(sent.failure) };
		}
		const checked = successOrFailure('put', sent.value);
		if (checked.ok) {
			signals.succeeded();
			return {
				done: {
					statusCode: checked.value.statusCode,
					etag: headerText(checked.value.headers, 'etag'),
					attempts: attemptNumber,
					uploadUrlRequests,
					possibleDuplicate,
					brokenTransfers,
				},
			};
		}
		const { failure } = checked;
		if (failure.statusCode === 429) signals.throttled(failure.retryAfterMs, putAt);
		if (failure.statusCode === 403) {
			// Expired or refused signature: never replay it, ask for a fresh address at once.
			uploadUrl = undefined;
			refreshes++;
			return { failure, retry: refreshes <= MAX_ADDRESS_REFRESHES, waitFirst: false };
		}
		return { failure, retry: isTransient(failure) };
	};

	return { ...(await withRetries(policy, attempt)), brokenTransfers };
}
