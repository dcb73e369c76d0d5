// The guard of test/tools/lint/test-files.js against n8n's own configuration: which files under test/
// does eslint.config.mjs (n8n's default config, strict mode) lint with its rules? Exactly the sample
// package's runtime code; and the globalSetup check names exactly the files it would lint.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { spawnSync } from 'node:child_process';

const guard = require('./test-files.js') as (() => Promise<void>) & {
	listTestFiles: (root?: string) => string[];
	misnamedTestFiles: (files: string[]) => string[];
	checkTestFiles: (root?: string) => void;
	RUNTIME_FIXTURES: string;
};

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Files (relative to the root, existing or not) that the repository's eslint.config.mjs lints with rules. */
function lintedWithRules(files: string[]): string[] {
	const result = spawnSync(process.execPath, [path.join(__dirname, 'linted.js'), ...files], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: 240_000, // a hang guard: loading n8n's config took over 60 s at load 20
	});
	if (result.status !== 0)
		throw new Error(
			`linted.js failed (${result.signal ?? `exit ${result.status}`}): ${result.stderr}`,
		);
	return JSON.parse(result.stdout);
}

describe('test file names (n8n default ESLint config)', () => {
	it("eslint.config.mjs is n8n's default configuration and strict mode is on", () => {
		const ours = fs.readFileSync(path.join(ROOT, 'eslint.config.mjs'), 'utf8');
		const template = fs.readFileSync(
			path.join(
				ROOT,
				'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs',
			),
			'utf8',
		);
		expect(ours.replace(/\s+/g, ' ').trim()).toBe(template.replace(/\s+/g, ' ').trim());
		const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		expect(pkg.n8n.strict).toBe(true);
	});

	it('lints no file under test/ with rules but the sample package, and the guard agrees', () => {
		const files = guard.listTestFiles();
		expect(files).toContain('test/tools/lint/test-files.test.cts');
		const linted = lintedWithRules(files);
		expect(linted.filter((file) => !file.startsWith(guard.RUNTIME_FIXTURES))).toEqual([]);
		// the sample package's node and credential are linted as the runtime code they are
		expect(linted).toEqual([
			'test/tools/scan/fixtures/sample-package/credentials/SampleApi.credentials.ts',
			'test/tools/scan/fixtures/sample-package/nodes/Sample/Sample.node.ts',
		]);
		expect(guard.misnamedTestFiles(files)).toEqual([]);
	});

	it('a planted foo.test.ts (or helper .ts) would be linted, and the guard names it', () => {
		const planted = ['test/product/unit/foo.test.ts', 'test/tools/emulator/helper.ts'];
		const harmless = ['test/product/unit/foo.test.cts', 'test/tools/emulator/helper.cts'];
		expect(lintedWithRules([...planted, ...harmless])).toEqual(planted);
		expect(guard.misnamedTestFiles([...planted, ...harmless])).toEqual(planted);
	});

	it('the jest globalSetup refuses a tree with a .test.ts file, naming it', async () => {
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-test-files-'));
		try {
			fs.mkdirSync(path.join(root, 'test', 'product', 'unit'), { recursive: true });
			fs.writeFileSync(path.join(root, 'test', 'product', 'unit', 'ok.test.cts'), '');
			expect(() => guard.checkTestFiles(root)).not.toThrow();
			fs.writeFileSync(path.join(root, 'test', 'product', 'unit', 'foo.test.ts'), '');
			expect(() => guard.checkTestFiles(root)).toThrow(
				/1 file\(s\) under test\/ end in \.ts[^]*\n {2}test\/product\/unit\/foo\.test\.ts$/,
			);
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
		await expect(guard()).resolves.toBeUndefined();
	});
});
