// Lint exactly what the n8n Creator Portal scanner (@n8n/scan-community-package 0.32.0) lints, with
// the same configuration: its buildScanConfig() in scanner/scanner.mjs, reproduced object for object
// below, over the files its source leg lints (SOURCE_FILE_PATTERNS: package.json and
// {nodes,credentials}/**/*.{js,ts,json}). Everything else in the repository (build and test
// tooling, dist/) is not published source and is ignored.
//
// `npm run lint:scanner` (part of `npm run lint`) passes this file to ESLint with -c from the repository
// root; ESLint then reads the patterns below relative to the working directory. It is not named
// eslint.config.*, so ESLint never picks it up on its own: eslint.config.mjs is n8n's default config
// (strict mode), which lints every **/*.ts with n8n's runtime rules.
//
// test/tools/scan/check-lint-config.js proves this file resolves to the same rules, plugins and parser
// as the scanner's own config for every linted file; `npm run scan` runs it.
import { defineConfig, globalIgnores } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import * as tsParserModule from '@typescript-eslint/parser';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';

// The scanner takes `tsParser.default ?? tsParser` of a dynamic import; same object here.
const parser = /** @type {any} */ (tsParserModule).default ?? tsParserModule;

export default defineConfig(
	// Only the published sources: package.json, nodes/ and credentials/.
	globalIgnores(['*', '!package.json', '!nodes/', '!credentials/'], 'eventpics/not-package-source'),

	// The scanner runs ESLint with allowInlineConfig: false, so eslint-disable comments do not
	// silence anything there; do the same here so `npm run lint` cannot pass where the scan fails.
	{ name: 'eventpics/no-inline-config', linterOptions: { noInlineConfig: true } },

	// ---- from here on: the scanner's buildScanConfig(), in its order ----
	n8nCommunityNodesPlugin.configs.recommended,
	{
		rules: { 'no-console': 'error' },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{
		files: ['package.json'],
		rules: { ...n8nNodesPlugin.configs.community.rules },
	},
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['**/*.json'],
		languageOptions: { parser },
	},
	{
		files: ['**/*.ts'],
		languageOptions: { parser },
	},
);
