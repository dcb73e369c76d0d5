import type { IDataObject } from 'n8n-workflow';

import type { EventSummary } from '../helpers/events';
import { parseEventsResponse } from '../helpers/events';
import { malformedFailure } from './errors';
import { callApi, successOrFailure } from './request';
import type { CallLimit, RetryPolicy, AttemptOutcome, RetryResult } from './retry';
import type { EventPicsContext, Result } from './request';
import { isTransient, withRetries } from './retry';

interface UploadUrlRequest {
	linkId: string;
	fileName: string;
	albumId?: string;
	takenAt?: number;
}

function outcomeOf<T>(result: Result<T>): AttemptOutcome<T> {
	if (result.ok) return { done: result.value };
	return { failure: result.failure, retry: isTransient(result.failure) };
}

async function listEventsOnce(
	ctx: EventPicsContext,
	baseUrl: string,
	limit: CallLimit,
): Promise<Result<EventSummary[]>> {
	const sent = await callApi(ctx, {
		step: 'geteventsandalbums',
		...limit,
		options: {
			method: 'GET',
			url: `${baseUrl}/geteventsandalbums`,
			headers: { Accept: 'application/json', 'Cache-Control': 'no-store' },
		},
	});
	const checked = sent.ok ? successOrFailure('geteventsandalbums', sent.value) : sent;
	if (!checked.ok) return checked;
	const answer = checked.value;
	const events = parseEventsResponse(answer.body);
	if (events === undefined) {
		return {
			ok: false,
			failure: malformedFailure('geteventsandalbums', answer, 'a JSON "events" list'),
		};
	}
	return { ok: true, value: events };
}

/** GET /geteventsandalbums: the events of the key, albums normalized (`id` or `albumId`). */
export async function listEvents(
	ctx: EventPicsContext,
	baseUrl: string,
	policy: RetryPolicy,
): Promise<RetryResult<EventSummary[]>> {
	return await withRetries(policy, async () =>
		outcomeOf(await listEventsOnce(ctx, baseUrl, policy)),
	);
}

/**
 * POST /getuploadurl, once. The key goes in the JSON body, which is all the API asks for, so the
 * call skips n8n's credential handling (which reads and decrypts the credential and resolves its
 * header expression on every call: about 1 ms per file) and follows no redirect.
 */
export async function requestUploadUrl(
	ctx: EventPicsContext,
	baseUrl: string,
	apiKey: string,
	request: UploadUrlRequest,
	limit: CallLimit,
): Promise<Result<string>> {
	const body: IDataObject = { apiKey, linkId: request.linkId, fileName: request.fileName };
	if (request.albumId) body.albumId = request.albumId;
	if (request.takenAt !== undefined) body.takenAt = request.takenAt;
	const sent = await callApi(ctx, {
		step: 'getuploadurl',
		timeoutMs: limit.timeoutMs,
		timeoutName: limit.timeoutName,
		authenticated: false,
		options: {
			method: 'POST',
			url: `${baseUrl}/getuploadurl`,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		},
	});
	const checked = sent.ok ? successOrFailure('getuploadurl', sent.value) : sent;
	if (!checked.ok) return checked;
	const answer = checked.value;
	const uploadUrl =
		typeof answer.body === 'object' && answer.body !== null
			? (answer.body as IDataObject).uploadUrl
			: undefined;
	if (typeof uploadUrl !== 'string' || !/^https?:\/\//i.test(uploadUrl)) {
		return {
			ok: false,
			failure: malformedFailure('getuploadurl', answer, 'an "uploadUrl" address'),
		};
	}
	return { ok: true, value: uploadUrl };
}
