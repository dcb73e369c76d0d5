/**
 * Release tooling: CHANGELOG.md notes and entries, the publish workflow's tag check, and
 * `npm run release` end to end in a throw-away git repository.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { notesFor, cutRelease, CHANGELOG } = require('./changelog') as {
	notesFor: (text: string, version: string) => string;
	cutRelease: (text: string, version: string, date: string) => string;
	CHANGELOG: string;
};
const { checkTag } = require('./version-tag') as {
	checkTag: (tag: string | undefined, version: string, changelog: string) => string[];
};
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SAMPLE = `# Changelog

## [Unreleased]

### Fixed

- A fix.

## [0.1.0] - 2026-11-22

### Added

- The node.
`;

describe('CHANGELOG.md', () => {
	const text = fs.readFileSync(CHANGELOG, 'utf8');

	test("has an Unreleased section and notes for package.json's version", () => {
		const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		expect(text).toMatch(/^## \[Unreleased\]$/m);
		expect(notesFor(text, version)).toMatch(/^- /m);
	});

	test('notesFor gives one section without its heading and refuses unknown versions', () => {
		expect(notesFor(SAMPLE, '0.1.0')).toBe('### Added\n\n- The node.\n');
		expect(() => notesFor(SAMPLE, '0.2.0')).toThrow(
			'CHANGELOG.md has no section "## [0.2.0] - <date>"',
		);
	});

	test('cutRelease moves the Unreleased entries under the new version', () => {
		const cut = cutRelease(SAMPLE, '0.1.1', '2026-12-01');
		expect(cut).toContain(
			'## [Unreleased]\n\n## [0.1.1] - 2026-12-01\n\n### Fixed\n\n- A fix.\n\n## [0.1.0]',
		);
		expect(() => cutRelease(cut, '0.1.2', '2026-12-02')).toThrow('lists nothing under Unreleased');
		expect(() => cutRelease(SAMPLE, '0.1.0', '2026-12-02')).toThrow(
			'already has a section for 0.1.0',
		);
	});
});

describe('the tag check of publish.yml (version-tag.js)', () => {
	test('passes v<version> with notes', () => {
		expect(checkTag('v0.1.0', '0.1.0', SAMPLE)).toEqual([]);
	});
	test.each([
		['v0.1.1', /does not match package.json's version 0.1.0 \(expected "v0.1.0"\)/],
		['0.1.0', /does not match/],
		['', /no tag given/],
	])('refuses the tag "%s"', (tag, expected) => {
		expect(checkTag(tag, '0.1.0', SAMPLE).join('\n')).toMatch(expected);
	});
	test('refuses a version without CHANGELOG notes', () => {
		expect(checkTag('v0.3.0', '0.3.0', SAMPLE).join('\n')).toMatch(/no section "## \[0.3.0\]/);
	});
	test('the script exits 1 for a tag that is not the version, 0 for the right one', () => {
		const script = path.join(__dirname, 'version-tag.js');
		const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		expect(() => execFileSync(process.execPath, [script, 'v99.0.0'], { stdio: 'pipe' })).toThrow(
			/does not match package.json's version/,
		);
		expect(
			execFileSync(process.execPath, [script, `v${version}`], { encoding: 'utf8', stdio: 'pipe' }),
		).toContain(`v${version} = package.json ${version}`);
	});
});

describe('npm run release', () => {
	let dir: string;
	const git = (...args: string[]) =>
		execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' }).trim();
	const release = (...args: string[]) =>
		execFileSync(process.execPath, [path.join(__dirname, 'release.js'), ...args, '--root', dir], {
			encoding: 'utf8',
			stdio: 'pipe',
		});

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-release-'));
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			'{\n  "name": "sample",\n  "version": "0.1.0"\n}\n',
		);
		fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), SAMPLE);
		git('init', '--quiet');
		git('config', 'user.email', 'release-test@example.invalid');
		git('config', 'user.name', 'release test');
		git('add', '.');
		git('commit', '--quiet', '-m', 'start');
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	test('bumps the version, dates the CHANGELOG entry, commits and tags', () => {
		expect(release('0.1.1')).toContain('git push --atomic origin HEAD v0.1.1');
		expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version).toBe(
			'0.1.1',
		);
		expect(notesFor(fs.readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8'), '0.1.1')).toBe(
			'### Fixed\n\n- A fix.\n',
		);
		expect(git('log', '-1', '--format=%s')).toBe('Release 0.1.1');
		expect(git('describe', '--exact-match', 'HEAD')).toBe('v0.1.1');
		expect(git('status', '--porcelain')).toBe('');
	});

	test('refuses a version that is not above the current one, and a dirty tree', () => {
		expect(() => release('0.1.0')).toThrow(/0.1.0 is not above package.json's version 0.1.0/);
		fs.appendFileSync(path.join(dir, 'CHANGELOG.md'), 'edit\n');
		expect(() => release('0.2.0')).toThrow(/uncommitted changes/);
		expect(git('tag')).toBe('');
	});
});
