// The offline scan (test/tools/scan/scan.js) on a small sample package, clean and with planted faults, so
// it is shown to pass what the n8n scanner passes and to fail, in every leg, what it fails; then on
// this repository (dist/ built first when stale).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const SCAN = path.join(__dirname, 'scan.js');
const CHECK_LINT_CONFIG = path.join(__dirname, 'check-lint-config.js');
const SAMPLE = path.join(__dirname, 'fixtures', 'sample-package');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const SCAN_TIMEOUT = 240_000;
const { ensureBuiltForTests } = require('../demo/build') as { ensureBuiltForTests: () => string };

const temporaryDirs: string[] = [];

afterAll(() => {
	for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], cwd = REPO): { status: number | null; output: string } {
	const result = spawnSync(process.execPath, args, {
		cwd,
		encoding: 'utf8',
		timeout: SCAN_TIMEOUT,
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.error) throw result.error;
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Copy the sample package, let the test change it, then build it as gulp build would. */
function sample(change?: (dir: string) => void): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-scan-sample-'));
	temporaryDirs.push(dir);
	fs.cpSync(SAMPLE, dir, { recursive: true });
	fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	change?.(dir);
	const compiled = run([TSC, '-p', path.join(dir, 'tsconfig.json')], dir);
	expect(compiled.output).toBe('');
	expect(compiled.status).toBe(0);
	for (const top of ['nodes', 'credentials']) {
		for (const file of fs.readdirSync(path.join(dir, top), { recursive: true }) as string[]) {
			if (/\.(svg|png)$|\.node\.json$/.test(file)) {
				fs.mkdirSync(path.join(dir, 'dist', top, path.dirname(file)), { recursive: true });
				fs.copyFileSync(path.join(dir, top, file), path.join(dir, 'dist', top, file));
			}
		}
	}
	return dir;
}

let cleanBuild: string | undefined;

/** A copy of the sample built once unchanged: for checks that do not touch the TypeScript source. */
function builtSample(): string {
	cleanBuild ??= sample();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-scan-sample-'));
	temporaryDirs.push(dir);
	fs.cpSync(cleanBuild, dir, { recursive: true, verbatimSymlinks: true });
	return dir;
}

function edit(file: string, change: (text: string) => string) {
	fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
}

describe('offline scan', () => {
	it('the scanner-equal lint config (npm run lint:scanner) resolves to the scanner configuration', () => {
		const { status, output } = run([CHECK_LINT_CONFIG]);
		expect(output).toMatch(/equals the scanner's buildScanConfig\(\) for \d+ paths/);
		expect(status).toBe(0);
	});

	it(
		'passes a clean sample package in the source leg, the tarball leg and the scanner CLI',
		() => {
			const dir = builtSample();
			const { status, output } = run([SCAN, '--root', dir, '--no-build']);
			expect(output).toMatch(/== source leg .*: \d+ file\(s\), 0 error\(s\), 0 warning\(s\): PASS/);
			expect(output).toMatch(
				/== tarball leg .*: \d+ file\(s\), 0 error\(s\), 0 warning\(s\): PASS/,
			);
			expect(output).toContain('✅ Provenance check passed for n8n-nodes-scan-sample@0.0.1');
			// the stub's provenance is labelled simulated wherever the CLI reports on it
			expect(output).toMatch(
				/✅ Provenance check passed for n8n-nodes-scan-sample@0\.0\.1 *\[simulated: local registry stub\]\n/,
			);
			expect(output).toContain('SIMULATED registry:');
			expect(output).toContain(
				'✅ Fetched source from github.com/eventpics/n8n-nodes-scan-sample@',
			);
			expect(output).toContain(
				'✅ Package n8n-nodes-scan-sample@0.0.1 has passed all security checks',
			);
			for (const served of ['packument', 'attestations', 'source-tarball', 'package-tarball']) {
				expect(output).toMatch(new RegExp(`-> 200 ${served}\\n`));
			}
			expect(output).toContain('\nscan: PASS (the scanner CLI ran against a simulated registry)');
			expect(status).toBe(0);
		},
		SCAN_TIMEOUT,
	);

	it(
		'fails a sample whose node uses a restricted global, naming file, line and rule in every leg',
		() => {
			const dir = sample((root) =>
				edit(
					path.join(root, 'nodes', 'Sample', 'Sample.node.ts'),
					(text) => `${text}\nexport const later = setTimeout;\n`,
				),
			);
			const { status, output } = run([SCAN, '--root', dir, '--no-build']);
			expect(output).toMatch(
				/nodes\/Sample\/Sample\.node\.ts:4\d:\d+ {2}error {2}.*setTimeout.* {2}\(@n8n\/community-nodes\/no-restricted-globals\)/,
			);
			expect(output).toMatch(
				/dist\/nodes\/Sample\/Sample\.node\.js:\d+:\d+ {2}error {2}.*setTimeout.* {2}\(@n8n\/community-nodes\/no-restricted-globals\)/,
			);
			expect(output).toMatch(/== source leg .*: FAIL/);
			expect(output).toMatch(/== tarball leg .*: FAIL/);
			expect(output).toContain('❌ Package n8n-nodes-scan-sample@0.0.1 has failed security checks');
			expect(output).toContain("the CLI's 2 error(s) are the source and tarball legs' 2");
			expect(output).toContain('\nscan: FAIL (source leg; tarball leg; scanner CLI)');
			expect(status).toBe(1);
		},
		SCAN_TIMEOUT,
	);

	it(
		'fails a sample whose package.json lacks the author email, in the source and tarball legs',
		() => {
			const dir = builtSample();
			edit(path.join(dir, 'package.json'), (text) => {
				const json = JSON.parse(text);
				delete json.author.email;
				return JSON.stringify(json, null, '\t');
			});
			const { status, output } = run([SCAN, '--root', dir, '--no-build', '--no-registry']);
			const authorFinding =
				/package\.json:\d+:\d+ {2}error {2}The "author" field must include a non-empty email\. {2}\(@n8n\/community-nodes\/valid-author\)/g;
			expect(output.match(authorFinding)).toHaveLength(2);
			expect(output).toContain('\nscan: FAIL (source leg; tarball leg)');
			expect(status).toBe(1);
		},
		SCAN_TIMEOUT,
	);

	it(
		'passes this repository (source as committed plus work tree, and the built package)',
		() => {
			ensureBuiltForTests(); // the tarball leg packs dist/: built here when stale
			expect(
				fs.existsSync(path.join(REPO, 'dist', 'nodes', 'EventPics', 'EventPics.node.js')),
			).toBe(true);
			const { status, output } = run([SCAN, '--no-build']);
			expect(output).toContain('✅ Package n8n-nodes-eventpics@');
			expect(output).toContain('\nscan: PASS');
			expect(status).toBe(0);
		},
		SCAN_TIMEOUT,
	);
});
