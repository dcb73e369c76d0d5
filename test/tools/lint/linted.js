// @ts-check
'use strict';

/**
 * Which of the given paths does the repository's eslint.config.mjs lint with rules? (As
 * `npx n8n-node lint` runs it: ESLint from the repository root, the config found by ESLint itself.)
 * A separate process, because n8n's config loads ES modules that jest's module loader cannot.
 *
 *   node test/tools/lint/linted.js <path relative to the root>...   prints a JSON array of those linted
 */

const path = require('node:path');
const { ESLint } = require('eslint');

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** @param {string[]} files */
async function lintedWithRules(files) {
	const eslint = new ESLint({ cwd: ROOT });
	/** @type {string[]} */
	const linted = [];
	for (const file of files) {
		const absolute = path.join(ROOT, file);
		if (await eslint.isPathIgnored(absolute)) continue;
		const config = await eslint.calculateConfigForFile(absolute);
		if (config && Object.keys(config.rules ?? {}).length > 0) linted.push(file);
	}
	return linted;
}

lintedWithRules(process.argv.slice(2)).then(
	(linted) => process.stdout.write(JSON.stringify(linted)),
	(error) => {
		process.stderr.write(`${error?.stack ?? error}\n`);
		process.exitCode = 1;
	},
);
