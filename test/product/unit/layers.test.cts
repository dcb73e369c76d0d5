import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * Imports among the product's files go one way (CONTRIBUTING.md, "Layout"), type imports included:
 *   nodes/EventPics: EventPics.node.ts -> actions/, methods/ -> transport/ -> helpers/
 *   nodes/EventPicsTrigger: its files -> the node's helpers/, transport/, methods/ and the Event
 *   field of actions/node.description.ts; credentials/ -> the node's helpers/
 * and no file reaches itself again through its imports.
 */
const ROOT = join(__dirname, '..', '..', '..');
const TRIGGER_MAY_USE = 'nodes/EventPics/actions/node.description.ts';

/** Where a file lies: 'helpers', 'transport', 'actions', 'methods', 'node', 'trigger' or 'credential'. */
function placeOf(file: string): string {
	const [top, folder, sub, ...rest] = file.split('/');
	if (top === 'credentials') return 'credential';
	if (folder === 'EventPicsTrigger') return 'trigger';
	return rest.length > 0 || ['helpers', 'transport', 'actions', 'methods'].includes(sub)
		? sub
		: 'node';
}

/** The places each place may import from (its own included). */
const MAY_IMPORT: Record<string, string[]> = {
	helpers: ['helpers'],
	transport: ['transport', 'helpers'],
	actions: ['actions', 'transport', 'helpers'],
	methods: ['methods', 'transport', 'helpers'],
	node: ['node', 'actions', 'methods', 'transport', 'helpers'],
	trigger: ['trigger', 'methods', 'transport', 'helpers'],
	credential: ['credential', 'helpers'],
};

function tsFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return tsFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The product files `file` imports (relative imports, `import type` and re-exports included). */
function importsOf(file: string): string[] {
	const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
	return info.importedFiles
		.map((ref) => ref.fileName)
		.filter((spec) => spec.startsWith('.'))
		.map((spec) => {
			const target = resolve(dirname(join(ROOT, file)), spec);
			const found = [`${target}.ts`, join(target, 'index.ts'), target].find(existsSync);
			if (found === undefined) throw new Error(`${file} imports ${spec}, which is no file`);
			return relative(ROOT, found).split('\\').join('/');
		});
}

const FILES = [...tsFiles('nodes'), ...tsFiles('credentials')];
const IMPORTS = new Map(
	FILES.map((file) => [file, importsOf(file).filter((to) => to.endsWith('.ts'))]),
);

test('every import goes the one way', () => {
	const wrong: string[] = [];
	let checked = 0;
	for (const [file, targets] of IMPORTS) {
		for (const target of targets) {
			checked += 1;
			const [from, to] = [placeOf(file), placeOf(target)];
			const allowed =
				MAY_IMPORT[from]?.includes(to) || (from === 'trigger' && target === TRIGGER_MAY_USE);
			if (!allowed) wrong.push(`${file} (${from}) imports ${target} (${to})`);
		}
	}
	expect(checked).toBeGreaterThan(50);
	expect(wrong).toEqual([]);
});

test('no import cycle among the product files, type imports included', () => {
	const state = new Map<string, 'open' | 'done'>();
	const cycles: string[] = [];
	const visit = (file: string, path: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
			return;
		}
		state.set(file, 'open');
		for (const target of IMPORTS.get(file) ?? []) visit(target, [...path, file]);
		state.set(file, 'done');
	};
	for (const file of FILES) visit(file, []);
	expect(cycles).toEqual([]);
});
