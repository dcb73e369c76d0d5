/**
 * The publish workflow keeps what n8n's verification and a safe release need (test/tools/release/publish-guard.js):
 * the real file passes, and each broken copy below fails with the problem it introduces.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkPublishWorkflow } = require('./publish-guard') as {
	checkPublishWorkflow: (text: string) => string[];
};

const FILE = path.resolve(__dirname, '..', '..', '..', '.github', 'workflows', 'publish.yml');
const original = fs.readFileSync(FILE, 'utf8');

/** A copy of publish.yml with one replacement; fails the test when the text to replace is gone. */
function broken(search: string | RegExp, replacement: string): string {
	const text = original.replace(search, replacement);
	expect(text).not.toBe(original);
	return text;
}

test('publish.yml keeps tag trigger, permissions, provenance and the version check', () => {
	expect(checkPublishWorkflow(original)).toEqual([]);
});

describe('a broken copy of publish.yml is caught', () => {
	const cases: [string, () => string, RegExp][] = [
		['without id-token: write', () => broken(/^ +id-token: write\n/m, ''), /lacks id-token: write/],
		[
			'with id-token: read',
			() => broken(/^( +)id-token: write$/m, '$1id-token: read'),
			/lacks id-token: write/,
		],
		['without --provenance', () => broken(' --provenance', ''), /without --provenance/],
		['without --access public', () => broken(' --access public', ''), /without --access public/],
		[
			'on branch pushes instead of tags',
			() => broken(/^    tags: \[.*\]$/m, "    branches: ['main']"),
			/push must name version tags[\s\S]*filter on tags only, found "branches"/,
		],
		[
			'also on workflow_dispatch',
			() => broken(/^on:\n/m, 'on:\n  workflow_dispatch:\n'),
			/found: workflow_dispatch, push/,
		],
		[
			'without the version check',
			() => broken(/node test\/tools\/release\/version-tag\.js "\$GITHUB_REF_NAME"/, 'true'),
			/never runs test\/tools\/release\/version-tag\.js/,
		],
		[
			'with the version check made skippable',
			() => broken(/(\n +- name: The tag names[^\n]*\n)/, '$1        if: false\n'),
			/may be skipped/,
		],
		[
			'with the version check after npm publish',
			() => {
				const check =
					/\n +- name: The tag names[^\n]*\n +run: node test\/tools\/release\/version-tag\.js[^\n]*/;
				const step = original.match(check)![0];
				return broken(check, '').replace(
					/(\n +- name: Publish\n +run: npm publish[^\n]*)/,
					`$1${step}`,
				);
			},
			/checks the tag only after publishing/,
		],
		[
			'with write-all at the top',
			() => broken(/^permissions:\n  contents: read\n/m, 'permissions: write-all\n'),
			/the workflow grants \*: write/,
		],
		[
			'with contents: write on the publish job',
			() => broken(/^( +)contents: read\n( +id-token: write)$/m, '$1contents: write\n$2'),
			/job "publish" may write contents/,
		],
		[
			'with the publish step removed',
			() => broken(/npm publish --provenance --access public/, 'echo skipped'),
			/found 0/,
		],
	];
	test.each(cases)('%s', (_name, make, expected) => {
		const problems = checkPublishWorkflow(make());
		expect(problems.join('\n')).toMatch(expected);
	});
});
