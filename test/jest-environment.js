// @ts-check
'use strict';

/**
 * jest's node environment, plus one rule: a test file leaves nothing running. When a file's tests and
 * hooks are done, its timers, sockets, servers and child processes must run out within a few seconds
 * (the node's own pauses are n8n-workflow `sleep`s that cannot be cancelled, e.g. the 1 s poll of a
 * download's stall watch, so a run that ended can leave one behind for up to a second). The
 * environment waits for that, so no file's leftovers run into the next file or keep a jest worker from
 * exiting ("A worker process has failed to exit gracefully"), and fails the file, naming what is left,
 * when something is still there after LEFTOVER_LIMIT_MS: a leak, not a pause.
 *
 * And a quiet suite: a file whose tests write to the console fails (naming the first line). Figures a
 * test measures go through test/tools/figures.js, which keeps them in a file and prints them only when
 * asked (EVENTPICS_FIGURES=1).
 */

const { TestEnvironment } = require('jest-environment-node');

const LEFTOVER_LIMIT_MS = 5000;
/** Resource kinds of the worker process itself (its stdio, the terminal). */
const IGNORED = new Set(['TTYWrap']);

/** @returns {Map<string, number>} how many active resources of each kind the process has */
function activeResources() {
	const counts = new Map();
	for (const kind of process.getActiveResourcesInfo())
		if (!IGNORED.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
	return counts;
}

/**
 * @param {Map<string, number>} now
 * @param {Map<string, number>} before
 * @returns {string[]} e.g. ['Timeout x2'], what `now` has beyond `before`
 */
function beyond(now, before) {
	const extra = [];
	for (const [kind, count] of now)
		if (count > (before.get(kind) ?? 0)) extra.push(`${kind} x${count - (before.get(kind) ?? 0)}`);
	return extra;
}

class EventPicsEnvironment extends TestEnvironment {
	/**
	 * @param {import('@jest/environment').JestEnvironmentConfig} config
	 * @param {import('@jest/environment').EnvironmentContext} context
	 */
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.before = activeResources();
	}

	async setup() {
		await super.setup();
		/** @type {string[]} */
		const written = (this.consoleLines = []);
		const testConsole = /** @type {Record<string, (...args: unknown[]) => void>} */ (
			/** @type {unknown} */ (this.global.console)
		);
		for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) {
			const original = testConsole[method].bind(testConsole);
			testConsole[method] = (/** @type {unknown[]} */ ...args) => {
				written.push(`console.${method}: ${args.map(String).join(' ').slice(0, 300)}`);
				original(...args);
			};
		}
	}

	async teardown() {
		await super.teardown();
		const deadline = Date.now() + LEFTOVER_LIMIT_MS;
		let left = beyond(activeResources(), this.before);
		while (left.length > 0 && Date.now() < deadline) {
			await new Promise((resolve) => setImmediate(resolve));
			await new Promise((resolve) => setTimeout(resolve, 20).unref());
			left = beyond(activeResources(), this.before);
		}
		if (left.length > 0)
			throw new Error(
				`${this.testPath} left ${left.join(', ')} running ${LEFTOVER_LIMIT_MS / 1000} s after its tests ended: close what it opened`,
			);
		const written = this.consoleLines ?? [];
		if (written.length > 0)
			throw new Error(
				`${this.testPath} wrote to the console ${written.length} time(s), first: ${written[0]}\nTests stay quiet: assert instead, or report figures with test/tools/figures.js`,
			);
	}
}

module.exports = EventPicsEnvironment;
