import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The folders of the package's two nodes depend on each other in one direction only:
 *   nodes/EventPics:        EventPics.node.ts → actions/ and methods/ → transport/ → helpers/
 *   nodes/EventPicsTrigger: EventPicsTrigger.node.ts, description.ts ("trigger") → poll/ → the
 *                           main node's transport/ and helpers/
 * The trigger's top level may also use the main node's descriptions (actions/) and list search
 * (methods/); its poll/ may not, as actions/ and methods/ do not use each other (what both need
 * lives in transport/ or helpers/). Nothing points back, and the main node never imports the trigger.
 */
const NODES_DIR = join(__dirname, '..', '..', '..', 'nodes');
const MAIN = 'EventPics';
const TRIGGER = 'EventPicsTrigger';

const RANK: Record<string, number> = {
	node: 0,
	trigger: 0,
	actions: 1,
	methods: 1,
	poll: 1,
	transport: 2,
	helpers: 3,
};

interface Layer {
	folder: string;
	name: string;
}

/** The node folder of a file under nodes/ and its layer: its first folder there, else the node's top level. */
function layerOf(file: string): Layer {
	const [folder, ...rest] = relative(NODES_DIR, file).split(/[\\/]/);
	if (rest.length <= 1) return { folder, name: folder === TRIGGER ? 'trigger' : 'node' };
	return { folder, name: rest[0] };
}

/** Why an import from one layer into another goes against the direction, or undefined when it does not. */
function wrongWay(from: Layer, to: Layer): string | undefined {
	if (RANK[from.name] === undefined) return `unknown layer "${from.name}"`;
	if (RANK[to.name] === undefined) return `unknown layer "${to.name}"`;
	if (from.folder === MAIN && to.folder !== MAIN)
		return `${MAIN} must not import from ${to.folder}`;
	if (from.folder === to.folder && from.name === to.name) return undefined;
	if (RANK[to.name] > RANK[from.name]) return undefined;
	return `${from.name} must not import from ${to.name}`;
}

function productFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return productFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The file an import names: `x.ts`, `x/index.ts`, or `x` itself (a .json file). */
function importedFile(from: string, spec: string): string {
	const target = resolve(dirname(from), spec);
	const candidates = [`${target}.ts`, join(target, 'index.ts'), target];
	const found = candidates.find((candidate) => existsSync(candidate));
	if (found === undefined) throw new Error(`${from} imports ${spec}, which is no file`);
	return found;
}

function relativeImports(file: string): string[] {
	const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
	return info.importedFiles.map((ref) => ref.fileName).filter((name) => name.startsWith('.'));
}

const main = (name: string): Layer => ({ folder: MAIN, name });
const trigger = (name: string): Layer => ({ folder: TRIGGER, name });

describe('folder direction of nodes/', () => {
	test('the rule refuses imports against the direction and allows the ones along it', () => {
		expect(wrongWay(main('helpers'), main('transport'))).toBe(
			'helpers must not import from transport',
		);
		expect(wrongWay(main('methods'), main('actions'))).toBe('methods must not import from actions');
		expect(wrongWay(main('actions'), main('methods'))).toBe('actions must not import from methods');
		expect(wrongWay(main('transport'), main('actions'))).toBe(
			'transport must not import from actions',
		);
		expect(wrongWay(main('actions'), main('node'))).toBe('actions must not import from node');
		expect(wrongWay(main('node'), main('actions'))).toBeUndefined();
		expect(wrongWay(main('actions'), main('transport'))).toBeUndefined();
		expect(wrongWay(main('methods'), main('helpers'))).toBeUndefined();
		expect(wrongWay(main('transport'), main('helpers'))).toBeUndefined();
		expect(wrongWay(main('helpers'), main('helpers'))).toBeUndefined();
	});

	test('the trigger uses the main node along the direction, and the main node never uses the trigger', () => {
		expect(wrongWay(trigger('trigger'), main('methods'))).toBeUndefined();
		expect(wrongWay(trigger('trigger'), main('actions'))).toBeUndefined();
		expect(wrongWay(trigger('trigger'), trigger('poll'))).toBeUndefined();
		expect(wrongWay(trigger('poll'), main('transport'))).toBeUndefined();
		expect(wrongWay(trigger('poll'), main('helpers'))).toBeUndefined();
		expect(wrongWay(trigger('poll'), trigger('poll'))).toBeUndefined();
		expect(wrongWay(trigger('poll'), main('methods'))).toBe('poll must not import from methods');
		expect(wrongWay(trigger('poll'), main('actions'))).toBe('poll must not import from actions');
		expect(wrongWay(trigger('poll'), trigger('trigger'))).toBe('poll must not import from trigger');
		expect(wrongWay(trigger('trigger'), main('node'))).toBe('trigger must not import from node');
		expect(wrongWay(main('node'), trigger('trigger'))).toBe(
			'EventPics must not import from EventPicsTrigger',
		);
		expect(wrongWay(main('helpers'), trigger('poll'))).toBe(
			'EventPics must not import from EventPicsTrigger',
		);
		expect(wrongWay(trigger('lib'), main('helpers'))).toBe('unknown layer "lib"');
	});

	test('layers are read from the paths', () => {
		expect(layerOf(join(NODES_DIR, MAIN, 'EventPics.node.ts'))).toEqual(main('node'));
		expect(layerOf(join(NODES_DIR, MAIN, 'transport', 'api.ts'))).toEqual(main('transport'));
		expect(layerOf(join(NODES_DIR, TRIGGER, 'EventPicsTrigger.node.ts'))).toEqual(
			trigger('trigger'),
		);
		expect(layerOf(join(NODES_DIR, TRIGGER, 'description.ts'))).toEqual(trigger('trigger'));
		expect(layerOf(join(NODES_DIR, MAIN, 'methods', 'index.ts'))).toEqual(main('methods'));
		expect(layerOf(join(NODES_DIR, TRIGGER, 'poll', 'poll.ts'))).toEqual(trigger('poll'));
	});

	test('no product file imports against the direction', () => {
		const files = productFiles(NODES_DIR);
		expect(files.filter((file) => layerOf(file).folder === MAIN).length).toBeGreaterThan(40);
		expect(files.filter((file) => layerOf(file).folder === TRIGGER).length).toBeGreaterThan(4);
		const wrong: string[] = [];
		let checked = 0;
		let crossing = 0;
		for (const file of files) {
			for (const spec of relativeImports(file)) {
				const target = importedFile(file, spec);
				if (!target.startsWith(NODES_DIR)) {
					wrong.push(`${relative(NODES_DIR, file)} imports ${spec}, outside nodes/`);
					continue;
				}
				checked += 1;
				const [from, to] = [layerOf(file), layerOf(target)];
				if (from.folder !== to.folder) crossing += 1;
				const why = wrongWay(from, to);
				if (why) wrong.push(`${relative(NODES_DIR, file)} imports ${spec}: ${why}`);
			}
		}
		expect(checked).toBeGreaterThan(50);
		// the trigger reuses the main node's transport, helpers and list search instead of copies
		expect(crossing).toBeGreaterThan(5);
		expect(wrong).toEqual([]);
	});
});
