import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** What became of one case: its result, an error, or still running at its deadline (then stopped). */
export type CaseOutcome =
	| { name: string; done: true; ms: number; [detail: string]: unknown }
	| { name: string; done: false; error: string };

const CHILD = join(__dirname, 'child.js');

/**
 * Runs the cases of `modulePath` in child processes, one after the other: a case still running
 * `deadlineMs` after it started is stopped with its process (so a super-linear case fails instead
 * of holding the test run for hours), and the cases after it go on in a fresh process.
 */
export async function runCases(
	modulePath: string,
	names: string[],
	options: { deadlineMs: number; nodeArgs?: string[] },
): Promise<Map<string, CaseOutcome>> {
	const outcomes = new Map<string, CaseOutcome>();
	let left = [...names];
	while (left.length > 0) {
		await runSome(modulePath, left, options, outcomes);
		left = left.filter((name) => !outcomes.has(name));
	}
	return outcomes;
}

function runSome(
	modulePath: string,
	names: string[],
	options: { deadlineMs: number; nodeArgs?: string[] },
	outcomes: Map<string, CaseOutcome>,
): Promise<void> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[...(options.nodeArgs ?? []), CHILD, modulePath, ...names],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let running: string | undefined;
		let timer: NodeJS.Timeout | undefined;
		let buffered = '';
		let errors = '';
		child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
		child.stdout.on('data', (chunk: Buffer) => {
			buffered += chunk.toString();
			let newline: number;
			while ((newline = buffered.indexOf('\n')) !== -1) {
				const line = JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>;
				buffered = buffered.slice(newline + 1);
				if (typeof line.start === 'string') {
					running = line.start;
					const started = Date.now();
					clearTimeout(timer);
					timer = setTimeout(() => {
						outcomes.set(line.start as string, {
							name: line.start as string,
							done: false,
							error: `still running after ${Date.now() - started} ms: stopped`,
						});
						child.kill('SIGKILL');
					}, options.deadlineMs);
				} else if (typeof line.done === 'string') {
					clearTimeout(timer);
					running = undefined;
					const { done, ...result } = line;
					outcomes.set(done, { name: done, done: true, ms: Number(result.ms), ...result });
				} else if (typeof line.failed === 'string') {
					clearTimeout(timer);
					running = undefined;
					outcomes.set(line.failed, { name: line.failed, done: false, error: String(line.error) });
				}
			}
		});
		child.on('close', () => {
			clearTimeout(timer);
			if (running && !outcomes.has(running)) {
				outcomes.set(running, {
					name: running,
					done: false,
					error: `the process ended: ${errors}`,
				});
			}
			// a process that ended before it started some case: those fail rather than run forever
			for (const name of names) {
				if (!outcomes.has(name) && running === undefined && !child.killed) {
					outcomes.set(name, { name, done: false, error: `not run: ${errors}` });
				}
			}
			resolve();
		});
	});
}

/** Milliseconds of the fastest of `runs` calls of `call` (the least disturbed by other load). */
export function fastestMs(call: () => unknown, runs = 3): number {
	let best = Number.POSITIVE_INFINITY;
	for (let run = 0; run < runs; run++) {
		const started = process.hrtime.bigint();
		call();
		best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
	}
	return Math.round(best * 10) / 10;
}
