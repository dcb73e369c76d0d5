// @ts-check
'use strict';

/**
 * The executions n8n saved for a workflow, read from its SQLite database with n8n's own sqlite3
 * module once n8n has stopped; run by the Node of the n8n install (night.js):
 *
 *   node executions-db.js <database.sqlite> <workflowId>
 *
 * prints `[{ id, mode, status, startedAt, stoppedAt }]` as JSON, times in ms since 1970 (n8n
 * writes them as UTC text).
 */

const path = require('node:path');
const { n8nDir } = require('../n8n-app/paths');

const sqlite3 = require(path.join(n8nDir, 'node_modules', 'sqlite3'));

const [database, workflowId] = process.argv.slice(2);
const db = new sqlite3.Database(database, sqlite3.OPEN_READONLY);

/** @param {string | null} text @returns {number | null} */
const utc = (text) =>
	text ? Date.parse(`${text.replace(' ', 'T')}${/Z$/.test(text) ? '' : 'Z'}`) : null;

db.all(
	'SELECT id, mode, status, startedAt, stoppedAt FROM execution_entity WHERE workflowId = ? ORDER BY id',
	[workflowId],
	(/** @type {Error | null} */ error, /** @type {any[]} */ rows) => {
		if (error) {
			console.error(error);
			process.exitCode = 1;
		} else {
			const executions = rows.map((row) => ({
				id: String(row.id),
				mode: row.mode,
				status: row.status,
				startedAt: utc(row.startedAt),
				stoppedAt: utc(row.stoppedAt),
			}));
			process.stdout.write(JSON.stringify(executions));
		}
		db.close();
	},
);
