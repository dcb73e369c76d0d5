import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE_TYPE, nodeTypes } from '../node/fixture.cts';
import { example } from './run-example.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EXAMPLES, FOLDER } = require('../../tools/examples/examples');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EMULATOR_CREDENTIAL } = require('../../tools/n8n-app/n8n');

const names: string[] = EXAMPLES.map((entry: { name: string }) => entry.name);
/** Parameters n8n adds to a node when it offers it as an AI tool (n8n 2.41 convertNodeToAiTool). */
const TOOL_PARAMETERS = ['descriptionType', 'toolDescription'];

describe('the example workflows', () => {
	it('are the files of test/examples, each listed once', () => {
		expect(readdirSync(FOLDER).sort()).toEqual(names.map((name) => `${name}.json`).sort());
	});

	it.each(names)(
		'%s: has an id n8n accepts for `n8n execute --id` and a name that says what it is',
		(name) => {
			const workflow = example(name);
			expect(workflow.id).toMatch(/^[A-Za-z0-9]{1,21}$/);
			expect(workflow.name).toMatch(/^EventPics example: /);
			expect(new Set(workflow.nodes.map((node) => node.name)).size).toBe(workflow.nodes.length);
		},
	);

	it('have different ids', () => {
		expect(new Set(names.map((name) => example(name).id)).size).toBe(names.length);
	});

	it.each(names)(
		'%s: its EventPics nodes use the credential `npm run n8n` imports and only parameters the node has',
		(name) => {
			const known = new Set(
				nodeTypes[NODE_TYPE].description.properties.map((property) => property.name),
			);
			const ours = example(name).nodes.filter((node) =>
				node.type.startsWith('n8n-nodes-eventpics.'),
			);
			expect(ours.length).toBeGreaterThan(0);
			for (const node of ours) {
				expect(node.credentials).toEqual({ eventPicsApi: EMULATOR_CREDENTIAL });
				const allowed =
					node.type === `${NODE_TYPE}Tool` ? [...known, ...TOOL_PARAMETERS] : [...known];
				expect(
					Object.keys(node.parameters).filter((parameter) => !allowed.includes(parameter)),
				).toEqual([]);
			}
		},
	);

	it('are each in the README with their file', () => {
		const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
		for (const entry of EXAMPLES as Array<{ name: string; title: string }>) {
			expect(readme).toContain(`test/examples/${entry.name}.json`);
			expect(readme).toContain(entry.title);
		}
	});
});
