import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE_TYPE } from '../node/fixture.cts';
import { TRIGGER_TYPE, triggerTypes } from '../node/triggerFixture.cts';
import { example } from './run-example.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EXAMPLES, FOLDER } = require('../../tools/examples/examples');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SEED } = require('../../tools/emulator/seed');

interface SeedAccount {
	events: Array<{
		linkId: string;
		title: string;
		albums?: Array<{ id?: string; albumId?: string }>;
	}>;
}

const names: string[] = EXAMPLES.map((entry: { name: string }) => entry.name);
/** The parameter n8n adds to every polling node (n8n-workflow's applySpecialNodeParameters). */
const POLL_PARAMETERS = ['pollTimes'];

/** The parameter names a node of this package may set in an example (the tool variant: the node's). */
function knownParameters(type: string): Set<string> {
	const names = (nodeType: string) =>
		triggerTypes[nodeType as keyof typeof triggerTypes].description.properties.map(
			(property) => property.name,
		);
	if (type === TRIGGER_TYPE) return new Set([...names(TRIGGER_TYPE), ...POLL_PARAMETERS]);
	return new Set(names(NODE_TYPE));
}

describe('the example workflows', () => {
	it('are the files of examples/, each listed once, with different ids', () => {
		expect(readdirSync(FOLDER).sort()).toEqual(names.map((name) => `${name}.json`).sort());
		expect(new Set(names.map((name) => example(name).id)).size).toBe(names.length);
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

	// n8n matches a credential a workflow file names against the user's own: on import it picked one
	// of the user's EventPics credentials without asking. Without one, the user picks it.
	it.each(names)('%s: names no credential, so that n8n asks the user for theirs', (name) => {
		const named = example(name, { shipped: true })
			.nodes.filter((node) => node.credentials !== undefined)
			.map((node) => node.name);
		expect(named).toEqual([]);
	});

	it.each(names)('%s: its EventPics nodes set only parameters the node has', (name) => {
		const ours = example(name).nodes.filter((node) => node.type.startsWith('n8n-nodes-eventpics.'));
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours) {
			const known = knownParameters(node.type);
			expect(Object.keys(node.parameters).filter((parameter) => !known.has(parameter))).toEqual([]);
		}
	});

	it.each(names)(
		'%s: ships without an event or album, so the user picks them from their own list',
		(name) => {
			const shipped = example(name, { shipped: true });
			const eventPics = shipped.nodes.filter((node) => node.type === NODE_TYPE);
			// an EventPics node after another takes its event and album from it: one pick per workflow
			const picked = eventPics.filter(
				(node) =>
					!String((node.parameters.event as { value?: unknown })?.value).startsWith('={{ $('),
			);
			for (const node of picked) {
				expect([node.parameters.event, node.parameters.album]).toEqual([
					{ __rl: true, mode: 'list', value: '' },
					{ __rl: true, mode: 'list', value: '' },
				]);
			}
			for (const node of eventPics.filter((candidate) => !picked.includes(candidate))) {
				const source = picked.find((candidate) =>
					String((node.parameters.event as { value: string }).value).includes(
						`$('${candidate.name}')`,
					),
				);
				expect(source).toBeDefined();
				expect([node.parameters.event, node.parameters.album]).toEqual([
					{ __rl: true, mode: 'id', value: `={{ $('${source!.name}').params.event.value }}` },
					{ __rl: true, mode: 'id', value: `={{ $('${source!.name}').params.album.value }}` },
				]);
			}
			// nothing of the emulator's accounts: no link ID, event title or album id of its seed
			const text = readFileSync(join(FOLDER, `${name}.json`), 'utf8');
			for (const event of SEED.accounts.flatMap((account: SeedAccount) => account.events)) {
				expect(text).not.toContain(event.linkId);
				expect(text).not.toContain(JSON.stringify(event.title).slice(1, -1));
				for (const album of event.albums ?? [])
					expect(text).not.toContain(`"${album.id ?? album.albumId}"`);
			}
		},
	);

	it('are each in the README with their file', () => {
		const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
		for (const entry of EXAMPLES as Array<{ name: string; title: string }>) {
			expect(readme).toContain(`examples/${entry.name}.json`);
			expect(readme).toContain(entry.title);
		}
	});
});
