import type { ICredentialTestFunctions } from 'n8n-workflow';

import type { AnswerStream } from './request';
import { readAnswer } from './request';
import { findNetworkCode, n8nSsrfBlock } from './errors';
import { watchTransfer } from './watch';

/** The credential test's limits: it ends within TOTAL_MS whatever the server does. */
export const PROBE_LIMITS = {
	/** The whole test: connecting, the headers (n8n's `timeout` bounds these) and the body. */
	totalMs: 20_000,
	/** No byte of the answer for this long ends it. */
	stallMs: 10_000,
	/** Largest answer read (the node's own limit for an events list). */
	maxBytes: 4 * 1024 * 1024,
};

export type ProbeResult =
	| { ok: true; statusCode: number; headers: Record<string, unknown>; body: Buffer }
	| { ok: false; reason: 'noAnswer'; code: string; ssrf?: string }
	| { ok: false; reason: 'stalled' | 'tooSlow' | 'tooLarge' | 'broken'; statusCode: number };

interface LegacyResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body: AnswerStream;
}

/**
 * GET <base>/geteventsandalbums with the key, through the one request helper n8n gives a credential
 * test (the legacy `request`, which takes no abort signal). Never follows a redirect (the key would
 * go along). Bounded: n8n's `timeout` ends a server that sends no headers; after them a watch of our
 * own stops the body on a stall, at the total time, or past `maxBytes`.
 */
export async function probeEvents(
	ctx: ICredentialTestFunctions,
	baseUrl: string,
	apiKey: string,
	limits = PROBE_LIMITS,
): Promise<ProbeResult> {
	const startedAt = Date.now();
	let response: LegacyResponse;
	try {
		response = (await ctx.helpers.request({
			method: 'GET',
			uri: `${baseUrl}/geteventsandalbums`,
			headers: {
				Authorization: `Bearer ${apiKey}`,
				Accept: 'application/json',
				'Cache-Control': 'no-store',
			},
			followRedirect: false,
			followAllRedirects: false,
			simple: false,
			resolveWithFullResponse: true,
			useStream: true,
			json: false,
			timeout: limits.totalMs,
		})) as LegacyResponse;
	} catch (error) {
		return {
			ok: false,
			reason: 'noAnswer',
			code: findNetworkCode(error) ?? 'NETWORK_ERROR',
			ssrf: n8nSsrfBlock(error),
		};
	}
	const { statusCode } = response;
	const watch = watchTransfer({
		stallMs: limits.stallMs,
		deadlineMs: Math.max(1, limits.totalMs - (Date.now() - startedAt)),
	});
	try {
		const read = await readAnswer(response.body, limits.maxBytes, watch.signal, watch.moved);
		if (read.ok) {
			return { ok: true, statusCode, headers: response.headers ?? {}, body: read.bytes };
		}
		if (read.reason === 'tooLarge') return { ok: false, reason: 'tooLarge', statusCode };
		if (watch.stopped === 'stalled') return { ok: false, reason: 'stalled', statusCode };
		if (watch.stopped) return { ok: false, reason: 'tooSlow', statusCode };
		return { ok: false, reason: 'broken', statusCode };
	} finally {
		watch.end();
	}
}
