// @ts-check
'use strict';

/**
 * Figures a test measures (timings of the security suite's timed cases, for example): the suite stays
 * quiet (test/jest-environment.js fails a file that writes to the console), so they go to a file,
 * `<tmp>/eventpics-test-figures/<name>.txt`, replaced at each run, and to the terminal only when
 * EVENTPICS_FIGURES=1:
 *
 *   EVENTPICS_FIGURES=1 npm run test:product -- test/product/security/linear-time.test.cts
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const FOLDER = path.join(os.tmpdir(), 'eventpics-test-figures');

/**
 * @param {string} name file name without extension, e.g. 'linear-time'
 * @param {string} title
 * @param {string[]} rows
 * @returns {string} the file written
 */
function reportFigures(name, title, rows) {
	const text = `${title}\n${rows.join('\n')}\n`;
	fs.mkdirSync(FOLDER, { recursive: true });
	const file = path.join(FOLDER, `${name.replace(/[^\w.-]/g, '_')}.txt`);
	fs.writeFileSync(file, text);
	if (process.env.EVENTPICS_FIGURES === '1') process.stdout.write(`\n${text}`);
	return file;
}

module.exports = { reportFigures, FOLDER };
