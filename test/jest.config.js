// @ts-check
'use strict';

/** Jest configuration (kept under test/: the package's top level holds only what the layout names). */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
	testTimeout: 60000,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
