// @ts-check
'use strict';

/**
 * Proves that test/tools/scan/scanner.eslint.config.mjs (the scanner-equal lint, `npm run lint:scanner`,
 * part of `npm run lint`) resolves, for every file the n8n scanner
 * lints, to the same configuration as the scanner's own buildScanConfig(): the same rules with the
 * same severities and options, the same plugin objects, the same parser and language options. It
 * also checks that the repository config ignores what is not published source.
 *
 *   node test/tools/scan/check-lint-config.js [--root <dir>]      exit 0 when equal, 1 with the differences
 */

// eslint-plugin-n8n-nodes-base switches to its own unit-test behaviour (every file is "Test.node.ts")
// when NODE_ENV is 'test', as it is under jest; the scanner never runs so. Must precede loading it.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;

const path = require('node:path');
const { pathToFileURL } = require('node:url');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** The scanner-equal configuration, relative to the repository root (ESLint takes it with -c). */
const SCANNER_CONFIG = 'test/tools/scan/scanner.eslint.config.mjs';

/** Sample paths checked even when no such file exists yet (config matching is by path). */
const SAMPLE_LINTED = [
	'package.json',
	'nodes/Sample/Sample.node.ts',
	'nodes/Sample/Sample.node.json',
	'nodes/Sample/actions/thing/get.operation.ts',
	'nodes/Sample/helpers/plain.js',
	'credentials/SampleApi.credentials.ts',
	'credentials/helper.js',
	'credentials/data.json',
];

/** Paths `npm run lint` must leave alone: the scanner does not lint them as package source. */
const SAMPLE_IGNORED = [
	'gulpfile.js',
	'index.js',
	'eslint.config.mjs',
	SCANNER_CONFIG,
	'package-lock.json',
	'tsconfig.json',
	'test/tsconfig.json',
	'test/tools/scan/scan.js',
	'test/product/build/mediaTypes.test.cts',
	'dist/nodes/EventPics/EventPics.node.js',
	'dist/package.json',
];

/**
 * @param {string} specifier
 * @param {string} fromDir
 */
async function importFrom(specifier, fromDir) {
	const resolved = require.resolve(specifier, { paths: [fromDir] });
	return import(pathToFileURL(resolved).href);
}

/** @param {unknown} setting */
function normalizeRule(setting) {
	const list = Array.isArray(setting) ? setting : [setting];
	const severity = list[0];
	const level =
		severity === 'error' || severity === 2 ? 2 : severity === 'warn' || severity === 1 ? 1 : 0;
	return JSON.stringify([level, ...list.slice(1)]);
}

/**
 * The comparable parts of a calculated config.
 * @param {any} config
 */
function describe(config) {
	const rules = Object.fromEntries(
		Object.keys(config.rules ?? {})
			.sort()
			.map((name) => [name, normalizeRule(config.rules[name])]),
	);
	const { parser, parserOptions, ...otherLanguageOptions } = config.languageOptions ?? {};
	return {
		rules,
		plugins: /** @type {Record<string, unknown>} */ (config.plugins ?? {}),
		parser,
		parserOptions: JSON.stringify(parserOptions ?? {}),
		languageOptions: JSON.stringify(otherLanguageOptions, (key, value) =>
			typeof value === 'object' && value && key === 'globals' ? Object.keys(value).sort() : value,
		),
		processor: config.processor,
		language: config.language,
	};
}

/**
 * @param {{ root?: string }} [options]
 * @returns {Promise<{ ok: boolean, checked: string[], problems: string[], notes: string[] }>}
 */
async function checkLintConfig(options = {}) {
	const root = path.resolve(options.root ?? REPO_ROOT);
	const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
		paths: [root],
	});
	// scanner.mjs makes a temporary directory when it loads; let tmp remove it at exit
	require(require.resolve('tmp', { paths: [path.dirname(scannerPath)] })).setGracefulCleanup();
	const scanner = await import(pathToFileURL(scannerPath).href);
	const { ESLint } = await importFrom('eslint', path.dirname(scannerPath));
	const fastGlob = require(require.resolve('fast-glob', { paths: [path.dirname(scannerPath)] }));

	// With an explicit config file ESLint resolves its patterns from cwd, as `eslint -c` does.
	const ours = new ESLint({ cwd: root, overrideConfigFile: path.join(root, SCANNER_CONFIG) });
	const theirs = new ESLint({
		cwd: root,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});

	const present = fastGlob.sync(scanner.SOURCE_FILE_PATTERNS, {
		cwd: root,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const checked = [...new Set([...SAMPLE_LINTED, ...present])].sort();
	/** @type {string[]} */
	const problems = [];

	for (const file of checked) {
		const absolute = path.join(root, file);
		if (await ours.isPathIgnored(absolute)) {
			problems.push(`${file}: ignored by ${SCANNER_CONFIG} but linted by the scanner`);
			continue;
		}
		const mine = describe(await ours.calculateConfigForFile(absolute));
		const scan = describe(await theirs.calculateConfigForFile(absolute));
		for (const rule of new Set([...Object.keys(mine.rules), ...Object.keys(scan.rules)])) {
			if (mine.rules[rule] !== scan.rules[rule]) {
				problems.push(
					`${file}: rule ${rule} is ${mine.rules[rule] ?? 'absent'} here, ${scan.rules[rule] ?? 'absent'} in the scanner`,
				);
			}
		}
		for (const plugin of new Set([...Object.keys(mine.plugins), ...Object.keys(scan.plugins)])) {
			if (mine.plugins[plugin] !== scan.plugins[plugin]) {
				problems.push(
					`${file}: plugin ${plugin} differs (${plugin in mine.plugins ? 'other object' : 'absent'} here)`,
				);
			}
		}
		for (const key of /** @type {const} */ ([
			'parser',
			'parserOptions',
			'languageOptions',
			'processor',
			'language',
		])) {
			if (mine[key] !== scan[key]) problems.push(`${file}: ${key} differs from the scanner's`);
		}
		if (Object.keys(scan.rules).length < 20)
			problems.push(
				`${file}: the scanner config has only ${Object.keys(scan.rules).length} rules?`,
			);
	}

	for (const file of SAMPLE_IGNORED) {
		if (!(await ours.isPathIgnored(path.join(root, file)))) {
			problems.push(`${file}: linted by ${SCANNER_CONFIG}, but it is not package source`);
		}
	}

	const notes = [
		`${SCANNER_CONFIG} adds linterOptions.noInlineConfig = true: the scanner passes allowInlineConfig: false to ESLint, which is the same thing`,
	];
	return { ok: problems.length === 0, checked, problems, notes };
}

module.exports = { checkLintConfig, SCANNER_CONFIG };

if (require.main === module) {
	const rootIndex = process.argv.indexOf('--root');
	const root = rootIndex === -1 ? undefined : process.argv[rootIndex + 1];
	checkLintConfig({ root }).then(
		(result) => {
			for (const problem of result.problems) console.error(`lint config: ${problem}`);
			console.log(
				result.ok
					? `lint config: ${SCANNER_CONFIG} equals the scanner's buildScanConfig() for ${result.checked.length} paths (rules, severities, options, plugins, parser, language options)`
					: `lint config: ${result.problems.length} difference(s) from the scanner`,
			);
			process.exitCode = result.ok ? 0 : 1;
		},
		(error) => {
			console.error(error);
			process.exitCode = 1;
		},
	);
}
