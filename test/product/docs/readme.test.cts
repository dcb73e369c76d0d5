// Facts in README.md (for n8n users) and CONTRIBUTING.md (for developers): the node's labels, the
// credential's fields, links and anchors that resolve, scripts that exist. Not the documents' shape.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { credentialTypes, NODE_TYPE, nodeTypes } from '../node/fixture.cts';
import { TRIGGER_TYPE, triggerTypes } from '../node/triggerFixture.cts';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = ['README.md', 'CONTRIBUTING.md'];
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = text('README.md');
const pkg = JSON.parse(text('package.json'));

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
 * True when `doc` names `label` as a label: in a table cell, emphasized (`*Label*`, `**Label**`), a
 * choice after its field (`*Source: URL*`) or a path (`Options > ...`). A plain substring is not
 * enough: generic labels such as "Event" or "Options" are in any prose.
 */
function namedAsLabel(label: string, doc = readme): boolean {
	const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`(\\| |\\*|: )${escaped}( \\||\\*| >)`).test(doc);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(doc: string): Set<string> {
	const outside = doc.replace(/^```[^]*?^```/gm, '');
	return new Set([...outside.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
}

/** The text of one `## ` section, up to the next heading of that level. */
function section(doc: string, heading: string): string {
	const start = doc.indexOf(`\n## ${heading}\n`);
	if (start === -1) return '';
	const end = doc.indexOf('\n## ', start + 1);
	return doc.slice(start, end === -1 ? undefined : end);
}

describe('README.md and CONTRIBUTING.md', () => {
	it('README gives a fresh clone the three commands: npm install, npm run demo, npm test', () => {
		const blocks = [...readme.matchAll(/^```bash\n([^]*?)^```/gm)].map((match) => match[1]);
		const commands = (block: string) =>
			block.split('\n').map((line) => line.replace(/\s*#.*$/, '').trim());
		expect(
			blocks.some((block) => {
				const lines = commands(block).filter(Boolean);
				return lines.join('\n') === ['npm install', 'npm run demo', 'npm test'].join('\n');
			}),
		).toBe(true);
	});

	it('README names every field, option and choice of the node, so the reference cannot fall behind', () => {
		const missing = labels(nodeTypes[NODE_TYPE].description.properties).filter(
			(label) => !namedAsLabel(label),
		);
		expect(missing).toEqual([]);
	});

	it('README names every field and choice of the trigger, under the heading its codex links to', () => {
		const trigger = triggerTypes[TRIGGER_TYPE].description;
		expect(labels(trigger.properties)).toEqual(
			expect.arrayContaining(['Trigger On', 'New Event', 'Albums Of', 'One Event', 'Event']),
		);
		expect(labels(trigger.properties).filter((label) => !namedAsLabel(label))).toEqual([]);
		const codex = JSON.parse(text('nodes/EventPicsTrigger/EventPicsTrigger.node.json'));
		const url = new URL(codex.resources.primaryDocumentation[0].url);
		expect(`${url.origin}${url.pathname}`).toBe(pkg.homepage.replace(/#.*$/, ''));
		expect(anchors(readme).has(url.hash.slice(1))).toBe(true);
		expect(section(readme, 'EventPics Trigger')).toContain('| Trigger On |');
	});

	it('counts a label only where it stands as a label, not as a word in prose', () => {
		expect(readme).toContain('Time');
		expect(namedAsLabel('Time')).toBe(false);
		expect(namedAsLabel('Taken At')).toBe(true);
		expect(namedAsLabel('Taken At', 'the Taken At field')).toBe(false);
	});

	it('README names every operation together with its resource', () => {
		const lines = readme.split('\n');
		const operations = nodeTypes[NODE_TYPE].description.properties.filter(
			(property) => property.name === 'operation',
		);
		expect(operations.length).toBeGreaterThan(2);
		const missing: string[] = [];
		for (const field of operations) {
			const value = String(field.displayOptions?.show?.resource?.[0]);
			const resource = `${value[0].toUpperCase()}${value.slice(1)}`;
			for (const option of field.options as Array<{ name: string }>) {
				const both = (line: string) =>
					new RegExp(`\\b${resource}\\b`).test(line) && line.includes(option.name);
				if (!lines.some(both)) missing.push(`${resource} ${option.name}`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('README explains every credential field under the heading the credential links to', () => {
		const url = new URL(credentialTypes.eventPicsApi.documentationUrl as string);
		expect(`${url.origin}${url.pathname}`).toBe(pkg.homepage.replace(/#.*$/, ''));
		const heading = [...readme.matchAll(/^## (.+)$/gm)]
			.map((match) => match[1])
			.find((name) => anchorOf(name) === url.hash.slice(1));
		expect(heading).toBe('Credentials');
		const credentials = section(readme, 'Credentials');
		const fields = credentialTypes.eventPicsApi.properties.filter((p) => p.type !== 'notice');
		expect(fields.map((field) => field.displayName)).toEqual(['API Key', 'Base URL']);
		for (const field of fields) expect(namedAsLabel(field.displayName, credentials)).toBe(true);
	});

	it.each(DOCS)('%s links only to files and anchors that exist', (file) => {
		const doc = text(file);
		const targets = [...doc.matchAll(/\]\(((?!https?:)[^)\s]+)\)/g)].map((match) => match[1]);
		expect(targets.length).toBeGreaterThan(5);
		const broken = targets.filter((target) => {
			const [path, hash] = target.split('#');
			if (path && !existsSync(join(ROOT, path))) return true;
			if (hash === undefined) return false;
			const into = path ? path : file;
			return !into.endsWith('.md') || !anchors(text(into)).has(hash);
		});
		expect(broken).toEqual([]);
	});

	it('the anchor check finds a broken anchor', () => {
		expect(anchors('# A title\n\n## Queue mode: `npm run test:queue`\n')).toEqual(
			new Set(['a-title', 'queue-mode-npm-run-testqueue']),
		);
		expect(anchors(readme).has('no-such-section')).toBe(false);
	});

	it.each(DOCS)('%s names only npm scripts that exist', (file) => {
		const named = [...text(file).matchAll(/\bnpm run ([\w:-]*\w)/g)].map((match) => match[1]);
		expect(named.length).toBeGreaterThan(1);
		expect([...new Set(named)].filter((script) => !(script in pkg.scripts))).toEqual([]);
	});

	it.each(DOCS)(
		'%s is English only: no letters outside Latin-1 but its arrows and marks',
		(file) => {
			expect(text(file).replace(/[→⚑⋯≥]/g, '')).toMatch(/^[\u0000-\u00ff]*$/);
		},
	);
});
