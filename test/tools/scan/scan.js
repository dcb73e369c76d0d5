// @ts-check
'use strict';

/**
 * Offline run of the n8n community package scanner (@n8n/scan-community-package, the check behind
 * `npx @n8n/scan-community-package <name>` and the Creator Portal), against this repository.
 *
 *   node test/tools/scan/scan.js [--root <dir>] [--no-build] [--no-registry] [--keep]
 *
 * 1. lint config   scanner.eslint.config.mjs (npm run lint:scanner) resolves to the scanner's buildScanConfig() (check-lint-config.js)
 * 2. build, pack   `npm run build` (unless --no-build), `npm pack` into a temporary directory, extract
 * 3. source leg    the scanner's own analyzePackage(dir, SOURCE_FILE_PATTERNS) on a snapshot of the
 *                  source as GitHub would hold it (git's tracked and untracked-but-not-ignored files)
 * 4. tarball leg   the scanner's own analyzePackage(dir, ['**\/*.js', 'package.json']) on the extracted
 *                  `npm pack` tarball
 * 5. scanner CLI   the scanner's cli.mjs, unchanged, with its network pointed at a 127.0.0.1 stub
 *                  (its output lines that rest on the stub are marked "[simulated: local registry stub]")
 *                  (registry-stub.js) that serves the packument with a provenance attestation, the
 *                  attestation naming this repository and commit, the source tarball and the package
 *                  tarball: the whole analyzePackageByName() path, provenance check included
 *
 * Legs 3 and 4 also lint once more with the scanner's buildScanConfig() and identical ESLint options
 * to print every finding, warnings included (the scanner prints only when an error fails the scan),
 * and check that their count of errors agrees with the scanner's verdict.
 * Exit code 1 on any error in any leg; warnings are printed and do not fail (as in the scanner).
 */

// eslint-plugin-n8n-nodes-base switches to its own unit-test behaviour (every file is "Test.node.ts")
// when NODE_ENV is 'test', as it is under jest; the scanner never runs so. Must precede loading it.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const { pathToFileURL } = require('node:url');

const { checkLintConfig, SCANNER_CONFIG } = require('./check-lint-config');
const { startRegistryStub } = require('./registry-stub');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI_TIMEOUT_MS = 300_000;
/** Lines of the scanner CLI whose result rests on what the local registry stub served. */
const FROM_STUB = /Provenance check|Fetched source|Downloaded /;
const SIMULATED_MARK = '[simulated: local registry stub]';

/**
 * @typedef {object} Finding
 * @property {string} file      relative to the leg's directory
 * @property {number} line
 * @property {number} column
 * @property {'error' | 'warning'} severity
 * @property {string} rule
 * @property {string} message
 */

/**
 * @typedef {object} LegResult
 * @property {string} name
 * @property {boolean} passed
 * @property {number} files
 * @property {Finding[]} findings
 * @property {string[]} problems  harness-level problems (disagreement with the scanner, crashes)
 */

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = { root: REPO_ROOT, build: true, registry: true, keep: false };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--root') options.root = path.resolve(argv[++i] ?? '');
		else if (arg === '--no-build') options.build = false;
		else if (arg === '--no-registry') options.registry = false;
		else if (arg === '--keep') options.keep = true;
		else throw new Error(`unknown argument ${arg}`);
	}
	return options;
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} options
 */
function run(command, args, options) {
	const result = spawnSync(command, args, { encoding: 'utf8', ...options });
	if (result.error) throw result.error;
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed with ${result.status}\n${result.stderr ?? ''}`,
		);
	}
	return result;
}

/**
 * Files of the source tree as a clone of its repository would have them: tracked plus untracked
 * files that .gitignore does not exclude (so uncommitted work is scanned too). Outside a git work
 * tree: every file except node_modules/, dist/ and .git/.
 * @param {string} root
 * @returns {{ files: string[], describe: string, gitCommit: string | null }}
 */
function listSourceFiles(root) {
	try {
		const inside = execFileSync('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
		if (inside === 'true') {
			const listed = execFileSync(
				'git',
				['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'],
				{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
			)
				.split('\0')
				.filter(Boolean)
				.filter((file) => fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile());
			const gitCommit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], {
				encoding: 'utf8',
			}).trim();
			const changes = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', '.'], {
				encoding: 'utf8',
			})
				.split('\n')
				.filter(Boolean).length;
			return {
				files: [...new Set(listed)].sort(),
				describe: `git HEAD ${gitCommit.slice(0, 7)}${changes ? ` plus ${changes} uncommitted change(s) in the work tree` : ''}`,
				gitCommit,
			};
		}
	} catch {
		// not a git work tree: fall through
	}
	/** @type {string[]} */
	const files = [];
	/** @param {string} dir */
	const walk = (dir) => {
		for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
			const relative = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!['node_modules', 'dist', '.git'].includes(entry.name)) walk(relative);
			} else if (entry.isFile()) files.push(relative);
		}
	};
	walk('.');
	return {
		files: files.map((file) => file.replace(/^\.\//, '')).sort(),
		describe: 'directory copy (not a git work tree)',
		gitCommit: null,
	};
}

/**
 * @param {string} from
 * @param {string[]} files
 * @param {string} to
 */
function copyFiles(from, files, to) {
	for (const file of files) {
		fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
		fs.copyFileSync(path.join(from, file), path.join(to, file));
	}
}

/**
 * Lint a directory exactly as the scanner's analyzePackage() does and keep every message.
 * @param {any} scanner       the scanner module
 * @param {any} ESLint        ESLint class as the scanner resolves it
 * @param {any} fastGlob      fast-glob as the scanner resolves it
 * @param {string} dir
 * @param {string[]} patterns
 * @param {string} name
 * @returns {Promise<LegResult>}
 */
async function runLeg(scanner, ESLint, fastGlob, dir, patterns, name) {
	/** @type {string[]} */
	const problems = [];
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = fastGlob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = files.length ? await eslint.lintFiles(files) : [];
	/** @type {Finding[]} */
	const findings = [];
	for (const result of results) {
		for (const message of result.messages) {
			findings.push({
				file: path.relative(dir, result.filePath).split(path.sep).join('/'),
				line: message.line ?? 0,
				column: message.column ?? 0,
				severity: message.severity === 2 ? 'error' : 'warning',
				rule: message.ruleId ?? (message.fatal ? 'parse error' : 'eslint'),
				message: message.message,
			});
		}
	}
	const errors = results.reduce(
		(/** @type {number} */ sum, /** @type {any} */ result) => sum + result.errorCount,
		0,
	);
	// the scanner's own entry point, for its verdict
	const verdict = await scanner.analyzePackage(dir, patterns);
	if (verdict.passed !== (errors === 0)) {
		problems.push(
			`the scanner's analyzePackage says ${verdict.passed ? 'passed' : `failed (${verdict.message})`} but this run counted ${errors} error(s)`,
		);
	}
	if (files.length === 0) problems.push(`no files matched ${patterns.join(', ')} in ${dir}`);
	return {
		name,
		passed: verdict.passed && problems.length === 0,
		files: files.length,
		findings,
		problems,
	};
}

/** @param {LegResult} leg */
function printLeg(leg) {
	const errors = leg.findings.filter((finding) => finding.severity === 'error').length;
	const warnings = leg.findings.length - errors;
	console.log(
		`\n== ${leg.name}: ${leg.files} file(s), ${errors} error(s), ${warnings} warning(s): ${leg.passed ? 'PASS' : 'FAIL'}`,
	);
	for (const finding of leg.findings) {
		console.log(
			`  ${finding.file}:${finding.line}:${finding.column}  ${finding.severity}  ${finding.message}  (${finding.rule})`,
		);
	}
	for (const problem of leg.problems) console.log(`  HARNESS: ${problem}`);
}

/**
 * An environment for the scanner CLI in which its only reachable network is the stub.
 * @param {import('./registry-stub').RegistryStub} stub
 * @param {string} workDir
 */
function cliEnvironment(stub, workDir) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		// drop npm's script environment (npm_config_registry and friends), proxy settings, NODE_ENV
		if (/^npm_/i.test(key) || /^(https?|no|all)_proxy$/i.test(key) || key === 'NODE_ENV') continue;
		env[key] = value;
	}
	const userRc = path.join(workDir, 'user-npmrc');
	const globalRc = path.join(workDir, 'global-npmrc');
	fs.writeFileSync(userRc, '');
	fs.writeFileSync(globalRc, '');
	fs.mkdirSync(path.join(workDir, 'cli-tmp'), { recursive: true });
	return {
		...env,
		HTTPS_PROXY: stub.proxyUrl,
		https_proxy: stub.proxyUrl,
		HTTP_PROXY: stub.proxyUrl,
		http_proxy: stub.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: stub.caFile,
		npm_config_registry: stub.registryUrl,
		npm_config_cache: path.join(workDir, 'npm-cache'),
		npm_config_userconfig: userRc,
		npm_config_globalconfig: globalRc,
		npm_config_update_notifier: 'false',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		TMPDIR: path.join(workDir, 'cli-tmp'),
	};
}

/**
 * @param {string} cliPath
 * @param {string} spec
 * @param {NodeJS.ProcessEnv} env
 * @param {string} cwd
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function runCli(cliPath, spec, env, cwd) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [cliPath, spec], {
			cwd,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`scanner CLI did not finish in ${CLI_TIMEOUT_MS / 1000} s\n${output}`));
		}, CLI_TIMEOUT_MS);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output });
		});
	});
}

/**
 * "owner/repo" of a GitHub repository URL in package.json, as the provenance statement names it.
 * @param {any} packageJson
 */
function githubRepository(packageJson) {
	const url =
		typeof packageJson.repository === 'string'
			? packageJson.repository
			: packageJson.repository?.url;
	const match = /github\.com[/:]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?$/.exec(
		String(url ?? ''),
	);
	return match
		? { owner: match[1], repo: match[2] }
		: { owner: 'local', repo: String(packageJson.name).replace(/^@[^/]+\//, '') };
}

/** @param {string[]} argv */
async function main(argv) {
	const options = parseArgs(argv);
	const root = options.root;
	const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
		paths: [REPO_ROOT],
	});
	const scannerDir = path.dirname(scannerPath);
	const scannerPackage = require(path.join(scannerDir, '..', 'package.json'));
	// scanner.mjs makes a temporary directory when it loads; let tmp remove it at exit
	require(require.resolve('tmp', { paths: [scannerDir] })).setGracefulCleanup();
	const scanner = await import(pathToFileURL(scannerPath).href);
	const { ESLint } = await import(
		pathToFileURL(require.resolve('eslint', { paths: [scannerDir] })).href
	);
	const fastGlob = require(require.resolve('fast-glob', { paths: [scannerDir] }));

	console.log(
		`scan: ${scannerPackage.name} ${scannerPackage.version} (ESLint ${ESLint.version}) on ${root}`,
	);
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-scan-'));
	/** @type {string[]} */
	const failures = [];

	try {
		// 1. the repository's lint config is the scanner's
		if (fs.existsSync(path.join(root, SCANNER_CONFIG))) {
			const config = await checkLintConfig({ root });
			console.log(
				`\n== lint config: ${config.ok ? `${SCANNER_CONFIG} equals the scanner's buildScanConfig() for ${config.checked.length} paths` : 'DIFFERS from the scanner'}`,
			);
			for (const problem of config.problems) console.log(`  ${problem}`);
			if (!config.ok) failures.push(`${SCANNER_CONFIG} differs from the scanner configuration`);
		}

		// 2. build and pack
		if (options.build) {
			console.log('\n== npm run build');
			run('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
		}
		const packDir = path.join(workDir, 'pack');
		fs.mkdirSync(packDir);
		const packed = JSON.parse(
			String(run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root }).stdout),
		)[0];
		const tarballPath = path.join(packDir, packed.filename);
		const packageDir = path.join(workDir, 'package');
		fs.mkdirSync(packageDir);
		run('tar', ['-xzf', tarballPath, '-C', packageDir, '--strip-components=1'], {});
		const packageJson = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
		console.log(
			`\n== npm pack: ${packed.filename}, ${packed.entryCount} files, ${packed.size} bytes`,
		);
		if (!packed.files.some((/** @type {{path: string}} */ file) => file.path.startsWith('dist/'))) {
			failures.push('the tarball holds no dist/ files: build first');
		}

		// 3. source leg, on the source as its repository holds it
		const source = listSourceFiles(root);
		const { owner, repo } = githubRepository(packageJson);
		const gitCommit =
			source.gitCommit ??
			require('node:crypto').createHash('sha1').update(source.files.join('\n')).digest('hex');
		const sourceTop = `${repo}-${gitCommit}`;
		const sourceDir = path.join(workDir, 'source', sourceTop);
		copyFiles(root, source.files, sourceDir);
		console.log(`\n== source snapshot: ${source.files.length} files, ${source.describe}`);
		const sourceLeg = await runLeg(
			scanner,
			ESLint,
			fastGlob,
			sourceDir,
			scanner.SOURCE_FILE_PATTERNS,
			`source leg (analyzePackage with SOURCE_FILE_PATTERNS ${scanner.SOURCE_FILE_PATTERNS.join(' ')})`,
		);
		printLeg(sourceLeg);
		if (!sourceLeg.passed) failures.push('source leg');

		// 4. tarball leg, on what npm would publish
		const tarballLeg = await runLeg(
			scanner,
			ESLint,
			fastGlob,
			packageDir,
			['**/*.js', 'package.json'],
			'tarball leg (analyzePackage with **/*.js package.json on the npm pack output)',
		);
		printLeg(tarballLeg);
		if (!tarballLeg.passed) failures.push('tarball leg');

		// 5. the scanner's own CLI against a 127.0.0.1 registry
		if (options.registry) {
			const sourceTarballPath = path.join(workDir, 'source.tar.gz');
			run('tar', ['-czf', sourceTarballPath, '-C', path.join(workDir, 'source'), sourceTop], {});
			const stub = await startRegistryStub({
				packageJson,
				tarballPath,
				sourceTarballPath,
				owner,
				repo,
				gitCommit,
				workDir: path.join(workDir, 'stub'),
			});
			try {
				const spec = `${packageJson.name}@${packageJson.version}`;
				const cliPath = path.join(scannerDir, 'cli.mjs');
				const cliDir = path.join(workDir, 'cli');
				fs.mkdirSync(cliDir);
				const { code, output } = await runCli(cliPath, spec, cliEnvironment(stub, workDir), cliDir);
				const passedLine = `✅ Package ${spec} has passed all security checks`;
				const served = new Set(stub.requests.map((request) => request.served));
				const missing = ['packument', 'attestations', 'source-tarball', 'package-tarball'].filter(
					(kind) => !served.has(kind),
				);
				const refused = stub.requests.filter((request) => request.status >= 400);
				// the CLI prints stylish details only for a failing leg; its error total must be ours
				const cliErrors = [
					...output.matchAll(/✖ \d+ problems? \((\d+) errors?, \d+ warnings?\)/g),
				].reduce((sum, match) => sum + Number(match[1]), 0);
				const directErrors = [...sourceLeg.findings, ...tarballLeg.findings].filter(
					(finding) => finding.severity === 'error',
				).length;
				const agrees = cliErrors === directErrors;
				const passed =
					code === 0 &&
					output.includes(passedLine) &&
					missing.length === 0 &&
					refused.length === 0 &&
					agrees;
				console.log(
					`\n== scanner CLI (${path.relative(REPO_ROOT, cliPath)} ${spec}) via registry stub ${stub.origin}: ${passed ? 'PASS' : 'FAIL'}`,
				);
				console.log(
					'  SIMULATED registry: the packument, its provenance attestation (unsigned) and the source tarball come from registry-stub.js, not from npm or GitHub; this checks the scanner on this package, not a real publication.',
				);
				for (const line of output.trimEnd().split('\n'))
					console.log(`  | ${line}${FROM_STUB.test(line) ? `  ${SIMULATED_MARK}` : ''}`);
				console.log('  stub served:');
				for (const request of stub.requests) {
					console.log(
						`    ${request.via.padEnd(6)} ${request.method} ${request.host}${request.path} -> ${request.status} ${request.served}`,
					);
				}
				if (missing.length)
					console.log(`  HARNESS: the scanner never asked for: ${missing.join(', ')}`);
				if (code !== 0) console.log(`  HARNESS: the CLI exited with ${code}`);
				if (refused.length)
					console.log(`  HARNESS: the stub refused or did not know ${refused.length} request(s)`);
				if (!agrees)
					console.log(
						`  HARNESS: the CLI reported ${cliErrors} error(s), the source and tarball legs ${directErrors}`,
					);
				else
					console.log(
						`  the CLI's ${cliErrors} error(s) are the source and tarball legs' ${directErrors}`,
					);
				if (!passed) failures.push('scanner CLI');
			} finally {
				await stub.close();
			}
		}
	} finally {
		if (options.keep) console.log(`\n(kept ${workDir})`);
		else fs.rmSync(workDir, { recursive: true, force: true });
	}

	const simulated = options.registry ? ' (the scanner CLI ran against a simulated registry)' : '';
	console.log(
		failures.length ? `\nscan: FAIL (${failures.join('; ')})` : `\nscan: PASS${simulated}`,
	);
	return failures.length ? 1 : 0;
}

module.exports = { main, listSourceFiles };

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => {
			process.exitCode = code;
		},
		(error) => {
			console.error('scan: could not run:', error);
			process.exitCode = 1;
		},
	);
}
