/**
 * Error answers of a few megabytes, as a hostile or broken server sends them: how long turning one
 * into the error a user sees takes (cut, redacted), alone and through the real engine for ten items.
 * Run in a child process by ../error-work.test.ts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { INode } from 'n8n-workflow';

import type { Emulator } from '../../node/fixture.cts';
import { runEventPics, startEmulator } from '../../node/fixture.cts';
import { fastestMs } from './run.cts';

/* eslint-disable @typescript-eslint/no-require-imports */
const request = () => require('../../../../nodes/EventPics/transport/request');
const errors = () => require('../../../../nodes/EventPics/helpers/errors');
/* eslint-enable @typescript-eslint/no-require-imports */

const MIB = 1 << 20;

/** A 401 of about 3.4 MiB: the key in its message, and in `details` among 250,000 keys. */
export function manyKeys(key: string): string {
	const details: Record<string, string> = { echo: `sent ${key}` };
	for (let i = 0; i < 250_000; i++) details[`k${i}`] = 'v';
	details.last = key;
	return JSON.stringify({ code: 'UNAUTHORIZED', message: `Unknown key ${key}`, details });
}

/** A 401 of 4 MiB: a message of 4 MiB with the key at its end, and again in details. */
function longMessage(key: string): string {
	const message = `${'m'.repeat(4 * MIB - 200)} key=${key}`;
	return JSON.stringify({ code: 'UNAUTHORIZED', message, details: { key } });
}

/** A 401 just under 64 KiB (still parsed): the key 300 times in its message and in every value of 600 details keys. */
function keyEverywhere(key: string): string {
	const details: Record<string, string> = {};
	for (let i = 0; i < 600; i++) details[`k${i}`] = key;
	return JSON.stringify({
		code: 'UNAUTHORIZED',
		message: `Unknown key ${key}`.repeat(300),
		details,
	});
}

const KEY = 'ep_live_hostile_0123456789abcdef';
const NODE = { name: 'EventPics', type: 'n8n-nodes-eventpics.eventPics', parameters: {} } as INode;

type Case = () => Promise<{ ms: number; [detail: string]: unknown }>;

/** Time from the answer's bytes (read) to the node's error: parsed, cut, redacted. */
const errorOf =
	(body: (key: string) => string): Case =>
	async () => {
		const bytes = Buffer.from(body(KEY));
		let error: Error & { description?: string; errorResponse?: { message?: unknown } } =
			new Error();
		const ms = fastestMs(() => {
			const parsed = request().parseBody(bytes, 401);
			const failure = request().statusError('geteventsandalbums', 401, {}, parsed);
			error = errors().toNodeError(NODE, failure, { secret: KEY, itemIndex: 0 });
		});
		const shown = JSON.stringify({
			...error,
			message: error.message,
			description: error.description,
		});
		return {
			ms,
			answerBytes: bytes.length,
			message: error.message,
			said: String(error.errorResponse?.message ?? '').slice(0, 400),
			errorLength: shown.length,
			keyShown: shown.includes(KEY),
		};
	};

let emulator: Promise<Emulator> | undefined;

export const cases: Record<string, Case> = {
	'the error of a 3.4 MiB 401 with 250,000 keys in details': errorOf(manyKeys),
	'the error of a 4 MiB 401 whose message ends with the key': errorOf(longMessage),
	'the error of a 38 KB 401 with the key 900 times in message and details': errorOf(keyEverywhere),
	'10 items through the engine, the events list answering that 3.4 MiB 401': async () => {
		const emu = await (emulator ??= startEmulator());
		const parameters = {
			resource: 'event',
			operation: 'get',
			event: { __rl: true, mode: 'id', value: 'x' },
		};
		// warm-up: the engine's modules are loaded before anything is measured
		await runEventPics({ emu, parameters, continueOnFail: true });
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 401,
			body: manyKeys(emu.apiKey),
		});
		const histogram = monitorEventLoopDelay({ resolution: 10 });
		histogram.enable();
		const started = performance.now();
		const result = await runEventPics({
			emu,
			parameters,
			continueOnFail: true,
			inputItems: Array.from({ length: 10 }, () => ({ json: {} })),
		});
		const ms = Math.round(performance.now() - started);
		histogram.disable();
		const text = result.text();
		return {
			ms,
			maxBlockMs: Math.round(histogram.max / 1e6),
			items: result.items.length,
			firstError: String(result.items[0]?.json.error ?? '').slice(0, 300),
			runDataLength: text.length,
			keyShown: text.includes(emu.apiKey),
		};
	},
};
