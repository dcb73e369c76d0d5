// @ts-check
'use strict';

/**
 * Jest configuration (kept under test/: the package's top level holds only what the layout names).
 *
 * Three jest projects, two tiers of the suite (CONTRIBUTING.md, "Tests"):
 * - `npm test`, the fast tier: the projects `product` (test/product/: unit, the node in the real
 *   engine, security, exif, the example workflows, docs, build) and `tools` (test/tools/: emulator,
 *   engine harness, release scripts, lint). No build, no type-check (`npm run lint` type-checks),
 *   no verdict that depends on the machine's speed.
 * - `npm run test:field`, the project `field`: the files of FIELD_ONLY below (what runs in real
 *   time, needs dist/ or the packed tarball, or measures a time limit) and the exhaustive runs of
 *   SAMPLED (their fast-tier runs take a sample of the same inputs).
 * A single file: `node --experimental-vm-modules node_modules/jest/bin/jest.js --config
 * test/jest.config.js <file>` runs it in the project(s) that hold it.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** Only in the field tier: each needs real time, dist/, the npm tarball, or a measured time limit. */
const FIELD_ONLY = [
	'test/tools/scan/scan.test.cts', // the n8n scanner on this repository's npm tarball and on samples (~4 min)
	'test/product/node/slowUplink.test.cts', // 80 MiB through a 1 MiB/s uplink, in real time (~3 min)
	'test/product/security/credential-test-ends.test.cts', // 10-20 s deadlines, waited out
	'test/product/security/linear-time.test.cts', // a megabyte of hostile text against a time limit
	'test/product/security/error-work.test.cts', // error wording timed against a limit
	'test/product/security/transfers-end.test.cts', // stall timeouts in seconds, bounded above
	'test/product/security/waits-and-sizes.test.cts', // 1 s timeouts on loopback: missed at load 30
	'test/tools/emulator/network.test.cts', // the emulator's throttled links, timed
	'test/product/node/faultRun.test.cts', // 300 uploads under random faults with real back-off waits
	'test/product/node/concurrency.test.cts', // how many PUTs overlap at a latency: depends on the CPU
	'test/product/node/dedupeCrash.test.cts', // the compiled node (dist/) killed in a child process
	'test/product/package/metadata.test.cts', // the npm tarball (dist/ built first)
	'test/tools/demo/demo.test.cts', // npm run demo, which loads dist/
];

/**
 * In both tiers: the fast tier checks a sample of the inputs, the field tier all of them. A test reads
 * which with `(globalThis as { EVENTPICS_FIELD?: boolean }).EVENTPICS_FIELD` (set in `field` only).
 */
const SAMPLED = ['test/product/exif/robustness.test.cts'];

// A renamed or deleted file must leave these lists too: otherwise a slow test would silently return
// to `npm test` under its new name.
for (const file of [...FIELD_ONLY, ...SAMPLED])
	if (!fs.existsSync(path.join(ROOT, file)))
		throw new Error(
			`test/jest.config.js names ${file}, which does not exist: update FIELD_ONLY or SAMPLED`,
		);

/** @param {string} file @returns {string} a path pattern matching that one file */
const exactly = (file) => `^${path.join(ROOT, file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

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
	// A guard against a hung test, not a speed limit: a file that takes 20 s on a quiet machine took
	// over 60 s per test beside two busy loops at load 20 (what a shared CI runner can be).
	testTimeout: 300_000,
	maxWorkers: WORKERS,
	// "A worker process has failed to exit gracefully": measured with a probe in each worker (2026-11-27),
	// both workers had emitted 'exit' within 1 ms of jest's end message, holding nothing but their
	// stdio pipes, and were still force-killed after jest's default 500 ms: the process's own teardown
	// (a heap that loaded n8n-core) is slow on a busy machine, not a leak. Leaks are
	// test/jest-environment.js's job (it fails the file).
	workerGracefulExitTimeout: 10_000,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	rootDir: ROOT,
	projects: [
		{
			...shared,
			displayName: 'product',
			roots: ['<rootDir>/test/product'],
			testPathIgnorePatterns: ['/node_modules/', ...FIELD_ONLY.map(exactly)],
		},
		{
			...shared,
			displayName: 'tools',
			roots: ['<rootDir>/test/tools'],
			testPathIgnorePatterns: ['/node_modules/', ...FIELD_ONLY.map(exactly)],
		},
		{
			...shared,
			displayName: 'field',
			roots: ['<rootDir>/test'],
			testMatch: [...FIELD_ONLY, ...SAMPLED].map((file) => `<rootDir>/${file}`),
			globals: { EVENTPICS_FIELD: true },
		},
	],
};
