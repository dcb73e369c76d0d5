// @ts-check
'use strict';

/**
 * Makes sure dist/ holds a build of the current sources: when any file under nodes/ or
 * credentials/ (or package.json, tsconfig.json, gulpfile.js) is newer than the compiled node, or
 * dist/ is missing, it runs `gulp build` (the same as `npm run build`).
 */

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const COMPILED = [
	path.join(ROOT, 'dist', 'nodes', 'EventPics', 'EventPics.node.js'),
	path.join(ROOT, 'dist', 'credentials', 'EventPicsApi.credentials.js'),
];

/**
 * Newest modification time of the files under `target` (a file or a folder).
 * @param {string} target
 * @returns {number}
 */
function newest(target) {
	let stat;
	try {
		stat = fs.statSync(target);
	} catch {
		return 0;
	}
	if (!stat.isDirectory()) return stat.mtimeMs;
	let latest = 0;
	for (const entry of fs.readdirSync(target)) {
		latest = Math.max(latest, newest(path.join(target, entry)));
	}
	return latest;
}

/** The gulp command line script of the repo's devDependencies (gulp's exports hide it from require.resolve). */
function gulpScript() {
	const script = path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js');
	if (!fs.existsSync(script)) throw new Error('gulp is not installed: run `npm install` first');
	return script;
}

/** @returns {string | undefined} why a build is needed, or undefined when dist/ is fresh */
function staleReason() {
	const builtAt = Math.min(
		...COMPILED.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)),
	);
	if (builtAt === 0) return 'dist/ has no build yet';
	const sources = ['nodes', 'credentials', 'package.json', 'tsconfig.json', 'gulpfile.js'];
	const changed = sources.filter((source) => newest(path.join(ROOT, source)) > builtAt);
	return changed.length > 0 ? `${changed.join(', ')} changed since the last build` : undefined;
}

/**
 * Builds when needed. Returns what happened, for the demo's first line.
 * @param {{ log: (line: string) => void }} io
 * @returns {string}
 */
function ensureBuilt(io) {
	const reason = staleReason();
	if (!reason) return 'dist/ is up to date';
	io.log(`Building (${reason}): npm run build`);
	const started = Date.now();
	const result = spawnSync(process.execPath, [gulpScript(), 'build'], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (result.status !== 0) {
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
			.trim()
			.split('\n')
			.slice(-30)
			.join('\n');
		throw new Error(`The build failed (npm run build):\n${output}`);
	}
	return `built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** While a build runs for a test, other jest workers wait here instead of building (and cleaning dist/) too. */
const LOCK = path.join(ROOT, 'node_modules', '.eventpics-build-lock');
const LOCK_STALE_MS = 10 * 60_000;

/** @param {number} ms */
function sleepSync(ms) {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * For tests that read dist/ (the package as npm packs it, the demo, the scan of this repository): builds
 * when stale, one process at a time, so `npm run test:product` and `test:tools` need no build step
 * of their own and parallel jest workers never clean dist/ under each other.
 * @returns {string} what happened
 */
function ensureBuiltForTests() {
	for (;;) {
		try {
			fs.mkdirSync(LOCK);
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const age =
				Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
			if (age > LOCK_STALE_MS) fs.rmSync(LOCK, { recursive: true, force: true });
			else sleepSync(200);
		}
	}
	try {
		return ensureBuilt({ log: () => {} });
	} finally {
		fs.rmSync(LOCK, { recursive: true, force: true });
	}
}

module.exports = { ensureBuilt, ensureBuiltForTests, staleReason, gulpScript, ROOT };
