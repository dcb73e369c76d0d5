// @ts-check
'use strict';

/**
 * The length of every function of the product (nodes/ and credentials/), read with the TypeScript
 * parser: declarations, methods, constructors, arrow functions and function expressions, from the
 * start of their signature to their closing brace (leading comments not counted). Used by
 * test/product/unit/sizes.test.cts; run it to see the longest:
 *
 *   node test/tools/size/functions.js [how many, default 15]
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..', '..', '..');

/** @param {string} dir @returns {string[]} */
function tsFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

/** Every TypeScript file of the product (nodes/ and credentials/), as absolute paths. */
function productFiles(root = ROOT) {
	return [...tsFiles(path.join(root, 'nodes')), ...tsFiles(path.join(root, 'credentials'))];
}

/** @param {ts.Node} node */
function nameOf(node) {
	const named = /** @type {{ name?: ts.Node }} */ (node).name;
	if (named) return named.getText();
	const parent = node.parent;
	if (
		parent &&
		(ts.isVariableDeclaration(parent) ||
			ts.isPropertyAssignment(parent) ||
			ts.isPropertyDeclaration(parent))
	)
		return parent.name.getText();
	return '(anonymous)';
}

/** @param {ts.Node} node */
function isFunction(node) {
	return (
		ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isConstructorDeclaration(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node) ||
		ts.isGetAccessor(node) ||
		ts.isSetAccessor(node)
	);
}

/**
 * Every product function, longest first.
 * @returns {Array<{ lines: number; name: string; file: string; line: number }>}
 */
function measureFunctions(root = ROOT) {
	const files = productFiles(root);
	/** @type {Array<{ lines: number; name: string; file: string; line: number }>} */
	const found = [];
	for (const file of files) {
		const source = ts.createSourceFile(
			file,
			fs.readFileSync(file, 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		/** @param {ts.Node} node */
		const visit = (node) => {
			if (isFunction(node)) {
				const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
				const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
				found.push({
					lines: end - start + 1,
					name: nameOf(node),
					file: path.relative(root, file),
					line: start + 1,
				});
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found.sort((a, b) => b.lines - a.lines);
}

module.exports = { measureFunctions, productFiles };

if (require.main === module) {
	const count = Number(process.argv[2] ?? 15);
	for (const fn of measureFunctions().slice(0, count))
		console.log(`${String(fn.lines).padStart(4)}  ${fn.name}  ${fn.file}:${fn.line}`);
}
