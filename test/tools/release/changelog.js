#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * CHANGELOG.md (Keep a Changelog) for releases.
 *
 *   node test/tools/release/changelog.js notes <version>   print that version's notes (the GitHub release text)
 *
 * notesFor() fails when the version has no section or an empty one, so a release cannot go out
 * without notes; cutRelease() turns the Unreleased entries into a version's section (npm run release).
 */

const fs = require('node:fs');
const path = require('node:path');

const CHANGELOG = path.resolve(__dirname, '..', '..', '..', 'CHANGELOG.md');
const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * The sections of the changelog: `## [name] ...` headings and the text up to the next one.
 * @param {string} text
 * @returns {{ name: string, heading: string, start: number, bodyStart: number, end: number }[]}
 */
function sections(text) {
	const headings = [...text.matchAll(/^## \[([^\]]+)\][^\n]*$/gm)];
	return headings.map((match, index) => {
		const start = /** @type {number} */ (match.index);
		const next = headings[index + 1];
		const links = text.slice(start).search(/^\[[^\]]+\]: /m);
		const end = next?.index ?? (links === -1 ? text.length : start + links);
		return { name: match[1], heading: match[0], start, bodyStart: start + match[0].length, end };
	});
}

/**
 * The notes of one version, without its heading.
 * @param {string} text
 * @param {string} version
 */
function notesFor(text, version) {
	const section = sections(text).find((s) => s.name === version);
	if (!section) throw new Error(`CHANGELOG.md has no section "## [${version}] - <date>"`);
	const notes = text.slice(section.bodyStart, section.end).trim();
	if (!/^[-*] /m.test(notes)) throw new Error(`CHANGELOG.md lists no changes under ${version}`);
	return `${notes}\n`;
}

/**
 * Moves the Unreleased entries under a new `## [version] - date` heading; Unreleased stays, empty.
 * @param {string} text
 * @param {string} version
 * @param {string} date YYYY-MM-DD
 */
function cutRelease(text, version, date) {
	if (!VERSION.test(version)) throw new Error(`"${version}" is not a version like 1.2.3`);
	const all = sections(text);
	if (all.some((s) => s.name === version)) {
		throw new Error(`CHANGELOG.md already has a section for ${version}`);
	}
	const unreleased = all.find((s) => s.name === 'Unreleased');
	if (!unreleased) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
	const entries = text.slice(unreleased.bodyStart, unreleased.end).trim();
	if (!/^[-*] /m.test(entries)) {
		throw new Error('CHANGELOG.md lists nothing under Unreleased: add the changes first');
	}
	return (
		text.slice(0, unreleased.bodyStart) +
		`\n\n## [${version}] - ${date}\n\n${entries}\n\n` +
		text.slice(unreleased.end)
	);
}

module.exports = { notesFor, cutRelease, CHANGELOG };

if (require.main === module) {
	const [command, version] = process.argv.slice(2);
	if (command !== 'notes' || !version) {
		console.error('usage: node test/tools/release/changelog.js notes <version>');
		process.exitCode = 2;
	} else {
		try {
			process.stdout.write(notesFor(fs.readFileSync(CHANGELOG, 'utf8'), version));
		} catch (error) {
			console.error(`changelog: ${/** @type {Error} */ (error).message}`);
			process.exitCode = 1;
		}
	}
}
