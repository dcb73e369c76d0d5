// @ts-check
'use strict';

/**
 * Prints one plain closing line after jest's own summary, "tests: N passed, N failed[, N skipped]",
 * so that CI systems that read closing lines see the counts whatever they know of jest.
 */
class SummaryReporter {
	/** @param {unknown} _globalConfig */
	constructor(_globalConfig) {}

	/**
	 * @param {unknown} _contexts
	 * @param {{ numPassedTests: number, numFailedTests: number, numPendingTests: number, numTodoTests: number, numRuntimeErrorTestSuites: number }} results
	 */
	onRunComplete(_contexts, results) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}

module.exports = SummaryReporter;
