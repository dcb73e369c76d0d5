// Facts in README.md (for n8n users), docs/*.md (for operators and reviewers) and CONTRIBUTING.md (for
// developers): the node's labels, the credential's fields, links and anchors that resolve, scripts that
// exist. Every name is read from the node, trigger and credential classes (nodes/, credentials/, compiled
// by ts-jest), never from a list here, so a renamed or folded option fails these tests until the
// documents follow.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { credentialTypes, NODE_TYPE, nodeTypes } from '../node/fixture.cts';
import { TRIGGER_TYPE, triggerTypes } from '../node/triggerFixture.cts';

const ROOT = join(__dirname, '..', '..', '..');
/** The pages for operators and reviewers, linked from the README. */
const OPERATOR_DOCS = readdirSync(join(ROOT, 'docs'))
	.filter((name) => name.endsWith('.md'))
	.map((name) => `docs/${name}`);
const DOCS = ['README.md', 'CONTRIBUTING.md', ...OPERATOR_DOCS];
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = text('README.md');
const pkg = JSON.parse(text('package.json'));

const node = nodeTypes[NODE_TYPE].description;
const trigger = triggerTypes[TRIGGER_TYPE].description;
const credential = credentialTypes.eventPicsApi;

/** The options of Photo > Upload: the collection shown for that operation. */
const uploadOptions = (): string[] =>
	node.properties
		.filter(
			(property) =>
				property.type === 'collection' &&
				property.displayOptions?.show?.operation?.includes('upload'),
		)
		.flatMap((property) =>
			(property.options as INodeProperties[]).map((option) => option.displayName),
		);

/** Every field name a user sees in the node, options and choices included. */
function labels(properties: INodeProperties[]): string[] {
	const out: string[] = [];
	for (const property of properties) {
		if (property.type === 'notice') continue;
		out.push(property.displayName);
		// a fixedCollection's option sets hold their fields in `values`
		const values = (property as { values?: INodeProperties[] }).values ?? [];
		for (const option of [...(property.options ?? []), ...values]) {
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

/** The README's sections for users: everything before its Development section. */
function userSections(): string {
	const end = readme.indexOf('\n## Development\n');
	return end === -1 ? readme : readme.slice(0, end);
}

/** A document's prose: fenced blocks and inline code dropped, link targets dropped (their text kept). */
function prose(doc: string): string {
	return doc
		.replace(/^```[^]*?^```/gm, '')
		.replace(/`[^`\n]*`/g, '')
		.replace(/\]\([^)\s]*\)/g, ']');
}

/** Words that may stand lower case inside a label ("Use the Upload Time", "Import from File"). */
const SMALL_WORDS = new Set(
	'a an the of on to from in by for and or as with at using no'.split(' '),
);

/** A phrase written as a label: words and parentheses only, each word capitalized but small words. */
function looksLikeLabel(phrase: string): boolean {
	if (!/^[\p{L}\p{N} ()/-]+$/u.test(phrase)) return false;
	const words = phrase
		.split(' ')
		.map((word) => word.replace(/[()]/g, ''))
		.filter(Boolean);
	if (words.length === 0 || !/^\p{Lu}/u.test(words[0])) return false;
	return words.every((word) => /^[\p{Lu}\p{N}]/u.test(word) || SMALL_WORDS.has(word.toLowerCase()));
}

/**
 * The label-like phrases a document emphasizes (`*X*`, `**X**`) or quotes (`"X"`), split at a
 * field's choice (`Source: URL`), a path (`Options > Timeout`) and a resource's operation
 * (`Photo → Upload`).
 */
function emphasizedLabels(doc: string): string[] {
	const text = prose(doc);
	const phrases: string[] = [];
	for (const match of text.matchAll(/\*\*([^*\n]+)\*\*/g)) phrases.push(match[1]);
	const single = text.replace(/\*\*([^*\n]+)\*\*/g, '');
	for (const match of single.matchAll(/(?<![\w*])\*([^*\s][^*\n]*?)\*(?![\w*])/g))
		phrases.push(match[1]);
	for (const match of text.matchAll(/"([^"\n]+)"/g)) phrases.push(match[1]);
	return [
		...new Set(phrases.flatMap((phrase) => phrase.split(/: | → | > /)).filter(looksLikeLabel)),
	];
}

/** Every name this package shows in n8n: labels, choices, resources, operations, locator modes, types. */
function packageNames(): Set<string> {
	const names = new Set<string>([
		...labels(node.properties),
		...labels(trigger.properties),
		...labels(credential.properties),
		node.displayName,
		`${node.displayName} Tool`, // n8n's name for the node's AI tool variant
		trigger.displayName,
		credential.displayName,
	]);
	for (const property of [...node.properties, ...trigger.properties]) {
		if (['resource', 'operation'].includes(property.name))
			for (const option of property.options as Array<{ name: string }>) names.add(option.name);
		for (const mode of property.modes ?? []) names.add(mode.displayName);
	}
	return names;
}

/**
 * Names of n8n itself (its menus, settings, nodes and notices) and of the storage that the documents
 * emphasize. None is a field or option of this package: a stale option name is not hidden here.
 */
const OUTSIDE_NAMES = new Set([
	'AI Agent',
	'Authentication',
	'Await Write Finish',
	'Community Nodes',
	'Continue',
	'Credential Type',
	'Custom API Call',
	'Download',
	'Every Minute',
	'Fetch Test Event',
	'Ignore Existing Files/Folders',
	'Import', // the editor's workflow menu: Import → From file, From URL
	'From URL',
	'Install',
	'Local File Trigger',
	'Manually',
	'On Error',
	'Poll Times',
	'Predefined Credential Type',
	'Remove Duplicates',
	'Retry On Fail',
	'Settings',
	'SignatureDoesNotMatch',
	'Timezone',
]);

/** The file a relative link points to, read from the linking file's folder as GitHub does ("": the file itself). */
function linkedFile(file: string, path: string): string {
	return path ? normalize(join(dirname(file), path)) : file;
}

/** The first cells of the README's tables headed `| Field |` or `| Option |`. */
function tableNames(doc: string): string[] {
	const names: string[] = [];
	for (const table of doc.matchAll(/^\| (?:Field|Option) \|.*\n\|[- |]+\|\n((?:\|.*\n)+)/gm))
		for (const row of table[1].trimEnd().split('\n')) names.push(row.split('|')[1].trim());
	return names;
}

describe('README.md, docs/ and CONTRIBUTING.md', () => {
	it('README names every field, option and choice of the node, so the reference cannot fall behind', () => {
		const missing = labels(node.properties).filter((label) => !namedAsLabel(label));
		expect(missing).toEqual([]);
	});

	it('README names every field and choice of the trigger, under the heading its codex links to', () => {
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
		expect(targets.length).toBeGreaterThan(file.startsWith('docs/') ? 0 : 5);
		const broken = targets.filter((target) => {
			const [path, hash] = target.split('#');
			const into = linkedFile(file, path);
			if (into.startsWith('..') || !existsSync(join(ROOT, into))) return true;
			if (hash === undefined) return false;
			return !into.endsWith('.md') || !anchors(text(into)).has(hash);
		});
		expect(broken).toEqual([]);
	});

	it('README links every page of docs/', () => {
		expect(OPERATOR_DOCS.length).toBeGreaterThan(2);
		const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((match) => match[1]));
		expect(OPERATOR_DOCS.filter((file) => !linked.has(file))).toEqual([]);
	});

	it('README is at most 300 lines', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
	});

	it('README names every Upload option in its Options table', () => {
		const options = uploadOptions();
		expect(options.length).toBeGreaterThan(3);
		const rows = tableNames(section(readme, 'Operations'));
		expect(options.filter((option) => !rows.includes(option))).toEqual([]);
	});

	it("README's Field and Option tables name only fields and options the node, trigger and credential have", () => {
		const rows = tableNames(readme);
		expect(rows).toEqual(expect.arrayContaining(['API Key', 'Trigger On', ...uploadOptions()]));
		const known = packageNames();
		expect(rows.filter((name) => !known.has(name))).toEqual([]);
	});

	it.each(['README.md', ...OPERATOR_DOCS])(
		'%s emphasizes or quotes only names the package or n8n has (no option under an old name)',
		(file) => {
			const known = packageNames();
			const unknown = emphasizedLabels(text(file)).filter(
				(name) => !known.has(name) && !OUTSIDE_NAMES.has(name),
			);
			expect(unknown).toEqual([]);
		},
	);

	it("README's sections for users use no word of this repository", () => {
		const words = /npm run|npm test|emulator|CONTRIBUTING|\bjest\b|test\//i;
		const hits = prose(userSections())
			.split('\n')
			.filter((line) => words.test(line));
		expect(hits).toEqual([]);
	});

	it("README ends with a Development section: a fresh clone's three commands and a link to CONTRIBUTING.md", () => {
		const development = section(readme, 'Development');
		const block = /^```bash\n([^]*?)^```/m.exec(development)?.[1] ?? '';
		const commands = block.split('\n').map((line) => line.replace(/\s*#.*$/, '').trim());
		expect(commands.filter(Boolean)).toEqual(['npm install', 'npm run demo', 'npm test']);
		expect(development).toContain('](CONTRIBUTING.md)');
		const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
		expect(headings.slice(-2)).toEqual(['Development', 'License']);
	});

	it.each(DOCS)('%s names only npm scripts that exist', (file) => {
		const named = [...text(file).matchAll(/\bnpm run ([\w:-]*\w)/g)].map((match) => match[1]);
		if (!file.startsWith('docs/')) expect(named.length).toBeGreaterThan(1);
		expect([...new Set(named)].filter((script) => !(script in pkg.scripts))).toEqual([]);
	});

	it.each(DOCS)(
		'%s is English only: no letters outside Latin-1 but its arrows and marks',
		(file) => {
			expect(text(file).replace(/[→⚑⋯≥]/g, '')).toMatch(/^[\u0000-\u00ff]*$/);
		},
	);
});
