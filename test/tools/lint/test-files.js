// @ts-check
'use strict';

/**
 * Test code is TypeScript in `.cts` files (helpers included), never `.ts`.
 *
 * eslint.config.mjs is n8n's default configuration (`@n8n/node-cli/eslint`, required by strict mode and
 * so by n8n Cloud verification). It lints every `**\/*.ts` outside dist/ with the rules for code that runs
 * inside n8n (no `process`, no file system, no timers, ...), which test code rightly breaks; it does not
 * match `.cts`. A `.ts` file under test/ would make `npx n8n-node lint` fail, and a `*.test.ts` would not
 * even run (jest runs `*.test.cts`). test/jest.config.js runs this file as its globalSetup, so every jest
 * run stops at once and names such a file; test/tools/lint/test-files.test.cts proves that this check
 * names exactly the files that n8n's default configuration lints with rules.
 *
 * The one exception is the sample community package the scanner self-test scans
 * (test/tools/scan/fixtures/sample-package/): its `.ts` files are a node and a credential, runtime code
 * that the default configuration is right to lint, and they pass it.
 */

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Runtime code under test/ that n8n's default lint rules apply to (and that passes them). */
const RUNTIME_FIXTURES = 'test/tools/scan/fixtures/sample-package/';

/**
 * Every file under `<root>/test`, relative to root with `/` separators.
 * @param {string} [root]
 * @returns {string[]}
 */
function listTestFiles(root = ROOT) {
	const entries = /** @type {string[]} */ (
		fs.readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
	);
	return entries
		.map((entry) => `test/${entry.split(path.sep).join('/')}`)
		.filter((file) => !file.split('/').includes('node_modules'))
		.filter((file) => fs.statSync(path.join(root, file)).isFile())
		.sort();
}

/**
 * The files of `files` that n8n's default ESLint configuration would lint as runtime code (its
 * `**\/*.ts`), apart from the sample package.
 * @param {string[]} files  relative to the repository root
 * @returns {string[]}
 */
function misnamedTestFiles(files) {
	return files.filter((file) => file.endsWith('.ts') && !file.startsWith(RUNTIME_FIXTURES));
}

/** @param {string[]} files */
function explain(files) {
	return [
		`${files.length} file(s) under test/ end in .ts: n8n's default ESLint config (eslint.config.mjs,`,
		'strict mode) lints every **/*.ts as code that runs inside n8n, and jest only runs *.test.cts.',
		'Rename to .cts (`git mv x.test.ts x.test.cts`) and import test modules with their .cts',
		"extension (`import { startEmulator } from '../node/fixture.cts'`):",
		...files.map((file) => `  ${file}`),
	].join('\n');
}

/**
 * Throws, naming them, when files under `<root>/test` would be linted (or skipped) for their name.
 * @param {string} [root]
 */
function checkTestFiles(root = ROOT) {
	const misnamed = misnamedTestFiles(listTestFiles(root));
	if (misnamed.length) throw new Error(explain(misnamed));
}

/** jest globalSetup: refuse to run at all while such a file exists. */
async function globalSetup() {
	checkTestFiles(ROOT);
}

module.exports = globalSetup;
module.exports.listTestFiles = listTestFiles;
module.exports.misnamedTestFiles = misnamedTestFiles;
module.exports.checkTestFiles = checkTestFiles;
module.exports.RUNTIME_FIXTURES = RUNTIME_FIXTURES;
