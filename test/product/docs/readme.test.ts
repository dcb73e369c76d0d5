import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { credentialTypes, NODE_TYPE, nodeTypes } from '../node/fixture';
import { TRIGGER_TYPE, triggerTypes } from '../node/triggerFixture';

const ROOT = join(__dirname, '..', '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Every field name a user sees in the node, options and choices included. */
function labels(properties: INodeProperties[]): string[] {
	const out: string[] = [];
	for (const property of properties) {
		if (property.type === 'notice') continue;
		out.push(property.displayName);
		for (const option of property.options ?? []) {
			if ('displayName' in option) out.push(...labels([option as INodeProperties]));
			else if (
				'name' in option &&
				property.type === 'options' &&
				!['resource', 'operation'].includes(property.name)
			) {
				out.push(String(option.name));
			}
		}
	}
	return [...new Set(out)];
}

/**
 * True when the README names `label` as a label: a table cell (`| Label |`), emphasized (`*Label*`,
 * `**Label**`), a choice after its field (`*Source: URL*`) or a path (`Options > ...`). A plain
 * substring is not enough: generic labels such as "Event" or "Options" are in any prose.
 */
function namedAsLabel(label: string): boolean {
	const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`(\\| |\\*|: )${escaped}( \\||\\*| >)`).test(readme);
}

describe('README.md', () => {
	it('gives the two commands of the main job and the test command exactly', () => {
		expect(readme).toContain('\nnpm install\nnpm run demo');
		expect(readme).toContain('\nnpm test ');
	});

	it('names every field, option and choice of the node, so the reference cannot fall behind', () => {
		const missing = labels(nodeTypes[NODE_TYPE].description.properties).filter(
			(label) => !namedAsLabel(label),
		);
		expect(missing).toEqual([]);
	});

	it('names every field and choice of the trigger, under the heading its codex links to', () => {
		expect(readme).toContain('\n## EventPics Trigger\n');
		const trigger = triggerTypes[TRIGGER_TYPE].description;
		const missing = labels(trigger.properties).filter((label) => !namedAsLabel(label));
		expect(labels(trigger.properties)).toEqual(
			expect.arrayContaining(['Trigger On', 'New Event', 'Albums Of', 'One Event', 'Event']),
		);
		expect(missing).toEqual([]);
		// the codex's documentation link is that heading's anchor
		const codex = JSON.parse(
			readFileSync(join(ROOT, 'nodes', 'EventPicsTrigger', 'EventPicsTrigger.node.json'), 'utf8'),
		);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/#eventpics-trigger$/);
	});

	it('counts a label only where it stands as a label, not as a word in prose', () => {
		expect(readme).toContain('Time');
		expect(namedAsLabel('Time')).toBe(false);
		expect(namedAsLabel('Taken At')).toBe(true);
	});

	it('names every operation of every resource', () => {
		const operations = nodeTypes[NODE_TYPE].description.properties.filter(
			(property) => property.name === 'operation',
		);
		for (const field of operations) {
			const resource = String(field.displayOptions?.show?.resource?.[0]);
			for (const option of field.options as Array<{ name: string }>) {
				expect(readme).toMatch(
					new RegExp(`\\| ${resource[0].toUpperCase()}${resource.slice(1)} \\| ${option.name} \\|`),
				);
			}
		}
	});

	it('explains every credential field, under the heading the credential links to', () => {
		expect(readme).toContain('\n## Credentials\n');
		for (const property of credentialTypes.eventPicsApi.properties)
			expect(readme).toContain(`| ${property.displayName} |`);
	});

	it('links only to files that exist', () => {
		const targets = [...readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((match) => match[1]);
		expect(targets.length).toBeGreaterThan(10);
		expect(targets.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
	});

	it('is English only: no letters outside Latin-1 except the arrows and marks it uses', () => {
		expect(readme.replace(/[→⚑⋯≥]/g, '')).toMatch(/^[\u0000-\u00ff]*$/);
	});
});
