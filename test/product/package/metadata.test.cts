/**
 * The package metadata n8n's verification and npm show: one GitHub repository named everywhere,
 * an author, the community node keyword, and a tarball with only what n8n loads.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { ensureBuiltForTests } = require('../../tools/demo/build') as {
	ensureBuiltForTests: () => string;
};
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const REPO = 'https://github.com/eventpics/n8n-nodes-eventpics';

test('repository, homepage and bugs name the same GitHub repository', () => {
	expect(pkg.repository).toEqual({ type: 'git', url: `git+${REPO}.git` });
	expect(pkg.homepage).toBe(`${REPO}#readme`);
	expect(pkg.bugs).toEqual({ url: `${REPO}/issues` });
});

test('README, docs/, CONTRIBUTING and CHANGELOG link to that repository and to no other of its owner', () => {
	const docs = fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => path.join('docs', f));
	const text = ['README.md', ...docs, 'CONTRIBUTING.md', 'CHANGELOG.md']
		.map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
		.join('\n');
	const links = [...text.matchAll(/https:\/\/github\.com\/eventpics\/[^\s)#/]+/g)].map((m) => m[0]);
	expect(links.length).toBeGreaterThan(0);
	expect(new Set(links)).toEqual(new Set([REPO]));
});

test('author and the n8n-community-node-package keyword are set', () => {
	expect(pkg.author.name).toBeTruthy();
	expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
	expect(pkg.keywords).toContain('n8n-community-node-package');
});

test('the npm tarball holds only what n8n loads: no source maps, declarations or dist/package.json', () => {
	ensureBuiltForTests(); // dist/ as npm run build makes it, built here when stale
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: 'pipe', // npm's notices on stderr stay out of the test output (an error still throws)
	});
	const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
	// the one data file the node requires: the media type table (gulp generate)
	const data = 'dist/nodes/EventPics/helpers/mediaTypes.generated.json';
	const unexpected = files.filter(
		(f) =>
			!['package.json', 'README.md', 'LICENSE', 'index.js', data].includes(f) &&
			!/^dist\/(nodes|credentials)\/.+\.(js|svg|node\.json)$/.test(f),
	);
	expect(unexpected).toEqual([]);
	for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials, data])
		expect(files).toContain(entry);
	expect(files.some((f) => f.endsWith('.map') || f.endsWith('.d.ts'))).toBe(false);
	// the compiled files point to no map either
	const node = fs.readFileSync(path.join(ROOT, pkg.n8n.nodes[0]), 'utf8');
	expect(node).not.toContain('sourceMappingURL');
}, 180_000);
