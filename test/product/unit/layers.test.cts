import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The folders of nodes/EventPics depend on each other in one direction only:
 * EventPics.node.ts → actions/ and methods/ → transport/ → helpers/. Nothing points back, and
 * actions/ and methods/ do not use each other (what both need lives in transport/ or helpers/).
 */
const NODE_DIR = join(__dirname, '..', '..', '..', 'nodes', 'EventPics');

const RANK: Record<string, number> = { node: 0, actions: 1, methods: 1, transport: 2, helpers: 3 };

/** The layer of a file under nodes/EventPics: its first folder, or "node" for the node file. */
function layerOf(file: string): string {
	const first = relative(NODE_DIR, file).split(/[\\/]/)[0];
	return first.endsWith('.ts') ? 'node' : first;
}

/** Why an import from one layer into another goes against the direction, or undefined when it does not. */
function wrongWay(from: string, to: string): string | undefined {
	if (from === to) return undefined;
	if (RANK[to] === undefined) return `unknown layer "${to}"`;
	if (RANK[to] > RANK[from]) return undefined;
	return `${from} must not import from ${to}`;
}

function productFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return productFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

function relativeImports(file: string): string[] {
	const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
	return info.importedFiles.map((ref) => ref.fileName).filter((name) => name.startsWith('.'));
}

describe('folder direction of nodes/EventPics', () => {
	test('the rule refuses imports against the direction and allows the ones along it', () => {
		expect(wrongWay('helpers', 'transport')).toBe('helpers must not import from transport');
		expect(wrongWay('methods', 'actions')).toBe('methods must not import from actions');
		expect(wrongWay('actions', 'methods')).toBe('actions must not import from methods');
		expect(wrongWay('transport', 'actions')).toBe('transport must not import from actions');
		expect(wrongWay('actions', 'node')).toBe('actions must not import from node');
		expect(wrongWay('node', 'actions')).toBeUndefined();
		expect(wrongWay('actions', 'transport')).toBeUndefined();
		expect(wrongWay('methods', 'helpers')).toBeUndefined();
		expect(wrongWay('transport', 'helpers')).toBeUndefined();
		expect(wrongWay('helpers', 'helpers')).toBeUndefined();
	});

	test('no product file imports against the direction', () => {
		const files = productFiles(NODE_DIR);
		expect(files.length).toBeGreaterThan(40);
		const wrong: string[] = [];
		let checked = 0;
		for (const file of files) {
			for (const spec of relativeImports(file)) {
				const target = resolve(dirname(file), spec);
				if (!target.startsWith(NODE_DIR)) {
					wrong.push(`${relative(NODE_DIR, file)} imports ${spec}, outside the node`);
					continue;
				}
				checked += 1;
				const why = wrongWay(layerOf(file), layerOf(target));
				if (why) wrong.push(`${relative(NODE_DIR, file)} imports ${spec}: ${why}`);
			}
		}
		expect(checked).toBeGreaterThan(50);
		expect(wrong).toEqual([]);
	});
});
