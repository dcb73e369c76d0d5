// @ts-check
'use strict';

/**
 * Prints plain closing lines after jest's own summary, so that CI systems that read closing lines see
 * the counts whatever they know of jest: one line per tier (test/jest.config.js), then the last line
 * for the whole run, "tests: N passed, N failed[, N skipped]". Skipped tests are listed by name just
 * before (a test skipped for a missing tool, e.g. exiftool or Chromium, says why in its name), so a
 * skip is never silent.
 */
class SummaryReporter {
	/** @param {unknown} _globalConfig */
	constructor(_globalConfig) {}

	/**
	 * @param {Set<{ config: { displayName?: string | { name: string }, roots: string[] } }>} contexts
	 * @param {import('@jest/reporters').AggregatedResult} results
	 */
	onRunComplete(contexts, results) {
		/** @param {string | { name: string } | undefined} displayName */
		const nameOf = (displayName) =>
			typeof displayName === 'string' ? displayName : displayName?.name;
		const projects = [...(contexts ?? [])].map((context) => ({
			name: nameOf(context.config.displayName) ?? 'tests',
			roots: context.config.roots ?? [],
		}));
		/**
		 * A file that failed to run has no display name: its project is the only one that ran, or the
		 * one whose folder holds it.
		 * @param {string} testFilePath
		 */
		const projectOf = (testFilePath) =>
			projects.length === 1
				? projects[0].name
				: (projects.find((p) => p.roots.some((root) => testFilePath.startsWith(`${root}/`)))
						?.name ?? 'tests');
		/** @type {Map<string, { passed: number, failed: number, skipped: number, seconds: number }>} */
		const tiers = new Map();
		for (const file of results.testResults) {
			const name = nameOf(file.displayName) ?? projectOf(file.testFilePath);
			const tier = tiers.get(name) ?? { passed: 0, failed: 0, skipped: 0, seconds: 0 };
			tier.passed += file.numPassingTests;
			tier.failed += file.numFailingTests + (file.testExecError ? 1 : 0);
			tier.skipped += file.numPendingTests + file.numTodoTests;
			tier.seconds += (file.perfStats.end - file.perfStats.start) / 1000;
			tiers.set(name, tier);
		}
		const skippedNames = results.testResults.flatMap((file) =>
			file.testResults
				.filter((test) => test.status === 'pending' || test.status === 'todo')
				.map((test) => test.fullName),
		);
		for (const name of skippedNames.slice(0, 20)) process.stdout.write(`SKIPPED: ${name}\n`);
		if (skippedNames.length > 20)
			process.stdout.write(`SKIPPED: ... and ${skippedNames.length - 20} more\n`);
		if (tiers.size > 1) {
			for (const [name, t] of tiers) {
				process.stdout.write(
					`${name} tier: ${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''} (${t.seconds.toFixed(1)} s in test files)\n`,
				);
			}
		}
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}

module.exports = SummaryReporter;
