// @ts-check
'use strict';

/**
 * Jest configuration (kept under test/: the package's top level holds only what the layout names).
 *
 * Two tiers, one jest run (`npm test` runs both, CI runs exactly `npm test`), one folder each:
 * - `product` = test/product/: the package's own tests: unit, the node in the real engine, security,
 *   exif, the example workflows, docs, build, package metadata. The fast loop: `npm run test:product`.
 * - `tools` = test/tools/: self-tests of the development tools (scanner, emulator, engine harness,
 *   demo, release scripts). `npm run test:tools`.
 */
const ROOT = require('node:path').join(__dirname, '..');

/**
 * Jest's default is one worker less than the cores: one worker on a 2-core machine. The tests mostly
 * wait on loopback HTTP and timers, so two workers halve the wall time there (every test file starts
 * its own emulator on a free port and its own temp folders, so files do not share state).
 */
const WORKERS = Math.max(2, require('node:os').availableParallelism() - 1);

/** @type {import('jest').Config} */
const shared = {
	rootDir: ROOT,
	// test/jest-environment.js: jest's node environment that fails a file which leaves timers, sockets
	// or processes running after its tests.
	testEnvironment: '<rootDir>/test/jest-environment.js',
	// Tests are .cts files (see CONTRIBUTING.md, "Test files"); the product's .ts files they import
	// are compiled by ts-jest too.
	testMatch: ['**/*.test.cts'],
	moduleFileExtensions: ['js', 'cjs', 'mjs', 'cts', 'ts', 'json', 'node'],
	transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
};

/** @type {import('jest').Config} */
module.exports = {
	// Stops every run at once when a file under test/ ends in .ts (test/tools/lint/test-files.js).
	globalSetup: '<rootDir>/test/tools/lint/test-files.js',
	testTimeout: 60000,
	maxWorkers: WORKERS,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	rootDir: ROOT,
	projects: [
		{ ...shared, displayName: 'product', roots: ['<rootDir>/test/product'] },
		{ ...shared, displayName: 'tools', roots: ['<rootDir>/test/tools'] },
	],
};
