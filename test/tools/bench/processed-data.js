// @ts-check
'use strict';

/**
 * Reads and writes the rows of n8n's deduplication store (table `processed_data`) in an n8n SQLite
 * database, with n8n's own sqlite3 module; run by the Node of the n8n install (bench/dedupe.js):
 *
 *   node processed-data.js <database.sqlite> get   <workflowId>              prints the rows as JSON
 *   node processed-data.js <database.sqlite> clear <workflowId>
 *   node processed-data.js <database.sqlite> set   <workflowId> <context> <value.json>
 *
 * The value is what n8n's store writes itself (`{"mode":"entries","data":[md5 base64 of each
 * value]}`, the JSON text in SQLite); `set` replaces the row's value or inserts the row.
 */

const fs = require('node:fs');
const path = require('node:path');
const { n8nDir } = require('../n8n-app/paths');

const sqlite3 = require(path.join(n8nDir, 'node_modules', 'sqlite3'));

const [database, command, workflowId, context, valueFile] = process.argv.slice(2);
const db = new sqlite3.Database(database);

/** @param {string} sql @param {unknown[]} params @returns {Promise<any[]>} */
const all = (sql, params) =>
	new Promise((resolve, reject) =>
		db.all(sql, params, (/** @type {Error | null} */ error, /** @type {any[]} */ rows) =>
			error ? reject(error) : resolve(rows),
		),
	);

async function main() {
	if (command === 'get') {
		const rows = await all(
			'SELECT workflowId, context, value FROM processed_data WHERE workflowId = ?',
			[workflowId],
		);
		process.stdout.write(JSON.stringify(rows));
	} else if (command === 'clear') {
		await all('DELETE FROM processed_data WHERE workflowId = ?', [workflowId]);
	} else if (command === 'set') {
		const value = fs.readFileSync(valueFile, 'utf8');
		await all(
			'INSERT INTO processed_data (workflowId, context, value) VALUES (?, ?, ?) ' +
				'ON CONFLICT (workflowId, context) DO UPDATE SET value = excluded.value',
			[workflowId, context, value],
		);
	} else throw new Error(`unknown command ${command}`);
}

main().then(
	() => db.close(),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
