#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * The publish workflow's gate, before anything is published: the pushed tag must be "v" followed by
 * package.json's version, and CHANGELOG.md must have notes for that version.
 *
 *   node test/tools/release/version-tag.js <tag>      (publish.yml passes "$GITHUB_REF_NAME")
 */

const fs = require('node:fs');
const path = require('node:path');
const { notesFor } = require('./changelog');

const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * @param {string | undefined} tag
 * @param {string} version   package.json's version
 * @param {string} changelog CHANGELOG.md's text
 * @returns {string[]} what is wrong; empty when the tag may be published
 */
function checkTag(tag, version, changelog) {
	if (!tag) return ['no tag given (publish.yml passes "$GITHUB_REF_NAME")'];
	if (tag !== `v${version}`) {
		return [
			`the tag "${tag}" does not match package.json's version ${version} (expected "v${version}")`,
		];
	}
	try {
		notesFor(changelog, version);
		return [];
	} catch (error) {
		return [/** @type {Error} */ (error).message];
	}
}

module.exports = { checkTag };

if (require.main === module) {
	const tag = process.argv[2];
	const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const problems = checkTag(tag, version, fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'));
	for (const problem of problems) console.error(`version-tag: ${problem}`);
	if (problems.length === 0)
		console.log(`version-tag: ${tag} = package.json ${version}, notes in CHANGELOG.md`);
	process.exitCode = problems.length === 0 ? 0 : 1;
}
