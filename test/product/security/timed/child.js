// @ts-check
'use strict';

/**
 * Runs hostile-input cases in a process of its own, so that a case that takes super-linear time
 * (minutes or hours on a megabyte) can be stopped from outside: a regular expression that
 * backtracks cannot be interrupted inside the process that runs it. See ./run.ts.
 *
 *   node child.js <cases module> <case name>...
 *
 * The cases module (TypeScript, .cts, loaded with TypeScript's own transpiler, as ts-jest does) exports
 * `cases`: name -> async function returning { ms, ...details }. For each case this prints one JSON
 * line `{"start": name}` before and one `{"done": name, ...result}` (or `{"failed": name, error}`)
 * after.
 */
const fs = require('node:fs');
const ts = require('typescript');

/** @param {NodeJS.Module} module @param {string} filename */
function compile(module, filename) {
	const output = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
			resolveJsonModule: true,
		},
	});
	/** @type {any} */ (module)._compile(output.outputText, filename);
}
// test modules are .cts, product modules .ts (see CONTRIBUTING.md, "Test files")
require.extensions['.cts'] = compile;
require.extensions['.ts'] = compile;
// tried in this order: "EventPics.node" is the .ts file, as for jest, not the codex .json beside it
for (const extension of ['.json', '.node']) {
	const load = require.extensions[extension];
	delete require.extensions[extension];
	require.extensions[extension] = load;
}

/** @param {object} line */
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
	const [modulePath, ...names] = process.argv.slice(2);
	const { cases } = require(modulePath);
	for (const name of names) {
		say({ start: name });
		try {
			say({ done: name, ...(await cases[name]()) });
		} catch (error) {
			say({ failed: name, error: String(/** @type {Error} */ (error)?.stack ?? error) });
		}
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		say({ failed: '(child)', error: String(error?.stack ?? error) });
		process.exit(1);
	},
);
