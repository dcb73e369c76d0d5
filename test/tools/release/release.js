#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * `npm run release -- <version>`: the release commit and tag, ready to push.
 *   1. checks: a version like 1.2.3 above package.json's, a clean git tree, entries under Unreleased
 *   2. CHANGELOG.md: the Unreleased entries become "## [<version>] - <today, UTC>"
 *   3. `npm version <version> --no-git-tag-version`: package.json and package-lock.json
 *   4. commit "Release <version>" and the annotated tag v<version>
 * Pushing stays yours: it prints the one command that starts publish.yml.
 *   node test/tools/release/release.js <version> [--root <dir>]
 */

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { cutRelease } = require('./changelog');

/**
 * @param {string} a
 * @param {string} b
 * @returns {number} >0 when a is the higher x.y.z version
 */
function compareVersions(a, b) {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
	return 0;
}

/**
 * @param {string} version
 * @param {string} root repository folder
 * @param {string} date YYYY-MM-DD
 */
function release(version, root, date) {
	/** @param {string} command @param {string[]} args */
	const run = (command, args) => execFileSync(command, args, { cwd: root, encoding: 'utf8' });
	const packageFile = path.join(root, 'package.json');
	const current = JSON.parse(fs.readFileSync(packageFile, 'utf8')).version;
	if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`"${version}" is not a version like 1.2.3`);
	if (compareVersions(version, current) <= 0) {
		throw new Error(`${version} is not above package.json's version ${current}`);
	}
	if (run('git', ['status', '--porcelain']).trim()) {
		throw new Error('the git tree has uncommitted changes: commit or stash them first');
	}
	const changelogFile = path.join(root, 'CHANGELOG.md');
	fs.writeFileSync(
		changelogFile,
		cutRelease(fs.readFileSync(changelogFile, 'utf8'), version, date),
	);
	run('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts']);
	const files = ['CHANGELOG.md', 'package.json'];
	if (fs.existsSync(path.join(root, 'package-lock.json'))) files.push('package-lock.json');
	run('git', ['add', ...files]);
	run('git', ['commit', '--quiet', '-m', `Release ${version}`]);
	run('git', ['tag', '-a', `v${version}`, '-m', `Release ${version}`]);
	return `v${version}`;
}

module.exports = { release, compareVersions };

if (require.main === module) {
	const args = process.argv.slice(2);
	const rootAt = args.indexOf('--root');
	const root =
		rootAt === -1 ? path.resolve(__dirname, '..', '..', '..') : path.resolve(args[rootAt + 1]);
	const version = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--root');
	try {
		if (!version) throw new Error('usage: npm run release -- <version>');
		const tag = release(version, root, new Date().toISOString().slice(0, 10));
		console.log(`release: committed "Release ${version}" and tagged ${tag}.`);
		console.log(`Push both to start publish.yml:  git push --atomic origin HEAD ${tag}`);
	} catch (error) {
		console.error(`release: ${/** @type {Error} */ (error).message}`);
		process.exitCode = 1;
	}
}
