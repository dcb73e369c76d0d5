import { join } from 'node:path';
import { reportFigures } from '../../tools/figures';

import type { CaseOutcome } from './timed/run.cts';
import { runCases } from './timed/run.cts';
import { cases as engineCases } from './timed/engineCases.cts';
import { cases } from './timed/textCases.cts';

/**
 * Threat: text from outside that takes time growing with the square of its length. `/\.+$/` and
 * `/^\.+|\.+$/g` on file names and the File URL's host, `/\/+$/` on the Base URL, a backtracking
 * Content-Disposition pattern: 100,000 dots in a File Name blocked all of n8n for 7-8 s, and a
 * megabyte would block it for hours.
 *
 * Every text function of the node gets a megabyte of its worst characters, in a child process that
 * is stopped when a case is still running after DEADLINE_MS (a pattern that backtracks cannot be
 * interrupted where it runs). The fastest of three calls must stay under LIMIT_MS; every time is
 * printed.
 */
const LIMIT_MS = 100;
const DEADLINE_MS = 15_000;

describe('security: every text function runs in linear time on a megabyte of hostile input', () => {
	let outcomes: Map<string, CaseOutcome>;
	beforeAll(async () => {
		outcomes = await runCases(join(__dirname, 'timed', 'textCases.cts'), Object.keys(cases), {
			deadlineMs: DEADLINE_MS,
		});
		const rows = [...outcomes.values()].map((o) =>
			o.done ? `${String(o.ms).padStart(8)} ms  ${o.name}` : `  FAILED     ${o.name}: ${o.error}`,
		);
		reportFigures(
			'linear-time-text',
			'Text functions on 1 MiB of hostile input (fastest of 3 calls):',
			rows,
		);
	}, 600_000);

	it.each(Object.keys(cases))(`%s: under ${LIMIT_MS} ms`, (name) => {
		const outcome = outcomes.get(name);
		if (!outcome?.done) throw new Error(`${name}: ${outcome?.error ?? 'no result'}`);
		expect(outcome.ms).toBeLessThan(LIMIT_MS);
	});
});

/** Longest the event loop may stand still while the node handles a megabyte of hostile text. */
const BLOCK_LIMIT_MS = 1000;

const NAME_WITH_DOTS = 'x.jpg';
const HOST_REFUSED =
	/^The File URL (\(after 1 redirect\) )?points into an internal network at http:\/\/a\.{200}/;

/** What each run through the engine must have produced, besides finishing in time. */
const EXPECTED: Record<string, Record<string, unknown>> = {
	'File Name option of 1 MiB: x, dots, y.jpg': { status: 'success', fileName: NAME_WITH_DOTS },
	"binary's own file name of 1 MiB: dots before the extension": { fileName: 'jpg.jpg' },
	'File URL with a path of 1 MiB: x, dots, y.jpg': { fileName: NAME_WITH_DOTS, urlLength: 2037 },
	'File URL with a host of 1 MiB: a, dots, b.localhost': {
		message: expect.stringMatching(HOST_REFUSED),
	},
	'redirect Location of 1 MiB: to a host of dots': { message: expect.stringMatching(HOST_REFUSED) },
	'redirect Location of 1 MiB: to a path of dots': { fileName: NAME_WITH_DOTS },
	'Content-Disposition of 1 MiB: filename="x, dots, y.jpg"': { fileName: 'x.jpg' },
	'Content-Disposition of 1 MiB: filename*= repeated without a quote': {
		fileName: 'disposition-ext.jpg',
	},
	'Base URL of 1 MiB: slashes, then a letter': {
		message: expect.stringMatching(
			/is longer than 2048 characters\. Use https:\/\/api\.eventpics\.net\.$/,
		),
	},
	'credential test, Base URL of 1 MiB: slashes, then a letter': {
		status: 'Error',
		message: expect.stringMatching(/^The Base URL is refused: .* is longer than 2048 characters\./),
	},
};

describe('security: a megabyte of text through the real engine blocks n8n for a moment at most', () => {
	let engine: Map<string, CaseOutcome>;
	beforeAll(async () => {
		engine = await runCases(join(__dirname, 'timed', 'engineCases.cts'), Object.keys(engineCases), {
			deadlineMs: 60_000,
			nodeArgs: ['--max-http-header-size=4194304'],
		});
		const rows = [...engine.values()].map((o) =>
			o.done
				? `${String(o.ms).padStart(6)} ms run, ${String(o.maxBlockMs).padStart(4)} ms longest block  ${o.name}`
				: `  FAILED  ${o.name}: ${o.error}`,
		);
		reportFigures('linear-time-engine', 'A megabyte through the real engine:', rows);
	}, 900_000);

	it.each(Object.keys(engineCases))(
		`%s: the event loop stands still under ${BLOCK_LIMIT_MS} ms`,
		(name) => {
			const outcome = engine.get(name);
			if (!outcome?.done) throw new Error(`${name}: ${outcome?.error ?? 'no result'}`);
			expect(outcome).toMatchObject(EXPECTED[name]);
			expect(outcome.maxBlockMs).toBeLessThan(BLOCK_LIMIT_MS);
			// whatever was refused or cut, no message carries the megabyte: at most 2,000 characters
			// (an address is shown up to 2,000) and the note of what was left out
			expect(Number(outcome.messageLength ?? 0)).toBeLessThan(2100);
		},
	);
});
