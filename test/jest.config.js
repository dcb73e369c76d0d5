// @ts-check
'use strict';

/**
 * Jest configuration (kept under test/: the package's top level holds only what the layout names).
 *
 * Two tiers, one jest run (`npm test` runs both, CI runs exactly `npm test`):
 * - `product`: the package's own tests: unit, the node in the real engine, security, exif, examples,
 *   docs, build. The fast loop while working: `npm run test:product`.
 * - `tools`: self-tests of the development tools: the scanner (test/scan), the emulator, the engine
 *   harness, the demo and the release tooling. `npm run test:tools`.
 */
const ROOT = require('node:path').join(__dirname, '..');
const TOOL_FOLDERS = ['scan', 'emulator', 'engine', 'demo', 'release'];

/** @type {import('jest').Config} */
const shared = {
	rootDir: ROOT,
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
};

/** @type {import('jest').Config} */
module.exports = {
	testTimeout: 60000,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	rootDir: ROOT,
	projects: [
		{
			...shared,
			displayName: 'product',
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: [
				'/node_modules/',
				...TOOL_FOLDERS.map((folder) => `<rootDir>/test/${folder}/`),
			],
		},
		{
			...shared,
			displayName: 'tools',
			roots: TOOL_FOLDERS.map((folder) => `<rootDir>/test/${folder}`),
			testMatch: ['**/*.test.ts'],
		},
	],
};
