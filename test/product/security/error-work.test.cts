import { join } from 'node:path';
import { reportFigures } from '../../tools/figures';

import { cases } from './timed/answerCases.cts';
import type { CaseOutcome } from './timed/run.cts';
import { runCases } from './timed/run.cts';

/**
 * Threat: an error answer of a few megabytes. The key was searched for in all of it before it was
 * cut, in every string of `details` separately and once per input item: a 401 of 3.4 MB with
 * 250,000 keys in `details` blocked n8n's event loop 18 s with 3 items and 81 s with 10.
 *
 * Now an error answer over 64 KiB is not parsed (JSON.parse alone took about a second for those
 * 250,000 keys), what an error shows of an answer is cut first and only then redacted, and that
 * once per answer: from the bytes of a 4 MiB answer to the error must take under LIMIT_MS (fastest
 * of three), and ten items failing on such an answer must not hold the event loop for more than
 * BLOCK_LIMIT_MS (reading the answer included). Cases run in a child process stopped after
 * DEADLINE_MS. Smaller answers keep what the service said in the error, cut and redacted
 * (key-in-errors.test.ts, waits-and-sizes.test.ts); a refused key (401) is worded by the node alone.
 */
const REFUSED = 'EventPics refused the API key of the credential (401)';
const LIMIT_MS = 50;
const BLOCK_LIMIT_MS = 1000;
const DEADLINE_MS = 60_000;

let outcomes: Map<string, CaseOutcome>;

describe('security: the work of an error answer is bounded, whatever its size', () => {
	beforeAll(async () => {
		outcomes = await runCases(join(__dirname, 'timed', 'answerCases.cts'), Object.keys(cases), {
			deadlineMs: DEADLINE_MS,
		});
		reportFigures(
			'error-work',
			'Error answers: the work of each (ms, bytes)',
			[...outcomes.values()].map((o) => JSON.stringify(o)),
		);
	}, 300_000);

	const outcome = (name: string) => {
		const found = outcomes.get(name);
		if (!found?.done) throw new Error(`${name}: ${found?.error ?? 'no result'}`);
		return found;
	};

	it.each([
		'the error of a 3.4 MiB 401 with 250,000 keys in details',
		'the error of a 4 MiB 401 whose message ends with the key',
	])(`%s takes under ${LIMIT_MS} ms, is a few KB and never shows the key`, (name) => {
		const result = outcome(name);
		expect(result).toMatchObject({ keyShown: false, message: REFUSED, said: '' });
		expect(result.answerBytes).toBeGreaterThan(3_000_000);
		expect(result.errorLength).toBeLessThan(12_000);
		expect(result.ms).toBeLessThan(LIMIT_MS);
	});

	it(`the error of a 38 KB 401 with the key 900 times in message and details (parsed) takes under ${LIMIT_MS} ms, keeps what the service said and redacts it`, () => {
		const result = outcome(
			'the error of a 38 KB 401 with the key 900 times in message and details',
		);
		expect(result.answerBytes).toBeGreaterThan(30_000);
		expect(result).toMatchObject({ keyShown: false, message: REFUSED });
		expect(result.said).toMatch(/^(Unknown key \[redacted API key\]){10}/);
		expect(result.errorLength).toBeLessThan(12_000);
		expect(result.ms).toBeLessThan(LIMIT_MS);
	});

	it(`10 items failing on that answer hold the event loop under ${BLOCK_LIMIT_MS} ms, each with its error`, () => {
		const result = outcome(
			'10 items through the engine, the events list answering that 3.4 MiB 401',
		);
		expect(result).toMatchObject({
			items: 10,
			keyShown: false,
			firstError: REFUSED,
		});
		expect(result.runDataLength).toBeLessThan(200_000);
		expect(result.maxBlockMs).toBeLessThan(BLOCK_LIMIT_MS);
	});
});
