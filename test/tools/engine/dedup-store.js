// @ts-check
'use strict';

/**
 * A stand-in for n8n's database-backed deduplication store (n8n/dist/deduplication/
 * deduplication-helper.js, behind `helpers.checkProcessedAndRecord`, used by Remove Duplicates),
 * doing what it does step by step for mode 'entries':
 *   - one row per workflow and context ('n:<node id>' for scope 'node'), its value the JSON text
 *     `{"mode":"entries","data":[md5 base64 of each value]}`; every call reads the row and parses
 *     it, and every call that records or removes builds the list again and writes it back whole,
 *     so a call costs in proportion to the history, as in n8n (measure it with `dedupStoreCalls()`)
 *   - the row is read and written in separate steps with an await between (n8n's findOne and
 *     update), so two calls at once can lose each other's values as in n8n: there is no lock
 *   - the first call for a row inserts the values without looking at duplicates among them; later
 *     calls test each value against the list as it was before the call (a value twice in one call
 *     is reported new twice and recorded twice), append the new ones, and keep the newest
 *     `maxEntries` (the oldest are dropped from the front)
 *   - `removeProcessed` removes the first occurrence of each value (a scan of the list per value)
 *   - a row saved with another mode is refused with n8n's message
 * It lives as long as the process; with N8N_HARNESS_DEDUP_FILE set, the rows are also kept in that
 * file (written on every change, read at the first call), so a killed process leaves them behind as
 * n8n's database does.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');

/** @type {Map<string, string>} row key -> the JSON text n8n stores */
let rows = new Map();
let loaded = false;
/** @type {Map<string, number>} row key -> entries in it (for the call log) */
const lengths = new Map();
/** @type {Array<{ method: string, values: number, entries: number, ms: number }>} */
let calls = [];

const file = () => process.env.N8N_HARNESS_DEDUP_FILE;

function load() {
	if (loaded) return;
	loaded = true;
	const path = file();
	if (path && fs.existsSync(path)) rows = new Map(Object.entries(JSON.parse(fs.readFileSync(path, 'utf8'))));
}

function save() {
	const path = file();
	if (!path) return;
	fs.writeFileSync(`${path}.tmp`, JSON.stringify(Object.fromEntries(rows)));
	fs.renameSync(`${path}.tmp`, path);
}

/** A database round trip: other calls may run in between. */
const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

/**
 * @param {import('n8n-workflow').DeduplicationScope} scope
 * @param {import('n8n-workflow').ICheckProcessedContextData} contextData
 */
function rowKey(scope, contextData) {
	if (scope === 'node' && !contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
	const context = scope === 'node' ? `n:${contextData.node?.id}` : '';
	return `${contextData.workflow.id}|${context}`;
}

/** @param {string} key @returns {Promise<{ mode: string, data: string[] } | undefined>} */
async function findRow(key) {
	load();
	await roundTrip();
	const text = rows.get(key);
	if (text === undefined) return undefined;
	const row = JSON.parse(text);
	lengths.set(key, row.data.length);
	return row;
}

/** @param {string} key @param {{ mode: string, data: string[] }} value */
async function writeRow(key, value) {
	const text = JSON.stringify(value);
	await roundTrip();
	rows.set(key, text);
	lengths.set(key, value.data.length);
	save();
}

/** @param {unknown} value */
const hash = (value) => crypto.createHash('md5').update(String(value)).digest('base64');

/** @param {import('n8n-workflow').ICheckProcessedOptions} options */
function assertEntries(options) {
	if (options.mode !== 'entries') throw new Error(`The harness store supports mode "entries" only (got "${options.mode}")`);
}

/**
 * @template T
 * @param {string} method
 * @param {number} values
 * @param {string} key
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function logged(method, values, key, work) {
	const started = process.hrtime.bigint();
	try {
		return await work();
	} finally {
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		calls.push({ method, values, entries: lengths.get(key) ?? 0, ms });
	}
}

/** @type {import('n8n-workflow').IDataDeduplicator} */
const inMemoryDeduplicator = {
	async checkProcessedAndRecord(items, scope, contextData, options) {
		assertEntries(options);
		const key = rowKey(scope, contextData);
		return await logged('checkProcessedAndRecord', items.length, key, async () => {
			const row = await findRow(key);
			if (row && row.mode !== options.mode) {
				throw new Error('Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.');
			}
			const hashed = items.map(hash);
			if (!row) {
				if (options.maxEntries) hashed.splice(0, hashed.length - options.maxEntries);
				await writeRow(key, { mode: options.mode, data: hashed });
				return { new: [...items], processed: [] };
			}
			const before = new Set(row.data);
			/** @type {import('n8n-workflow').IDeduplicationOutput} */
			const result = { new: [], processed: [] };
			hashed.forEach((value, index) => {
				if (before.has(value)) result.processed.push(items[index]);
				else {
					result.new.push(items[index]);
					row.data.push(value);
				}
			});
			if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
			await writeRow(key, row);
			return result;
		});
	},
	async removeProcessed(items, scope, contextData, options) {
		assertEntries(options);
		const key = rowKey(scope, contextData);
		await logged('removeProcessed', items.length, key, async () => {
			const row = await findRow(key);
			if (!row) return;
			for (const value of items.map(hash)) {
				const index = row.data.findIndex((entry) => entry === value);
				if (index !== -1) row.data.splice(index, 1);
			}
			await writeRow(key, row);
		});
	},
	async clearAllProcessedItems(scope, contextData) {
		const key = rowKey(scope, contextData);
		load();
		await roundTrip();
		rows.delete(key);
		save();
	},
	async getProcessedDataCount(scope, contextData, options) {
		const key = rowKey(scope, contextData);
		return await logged('getProcessedDataCount', 0, key, async () => {
			const row = await findRow(key);
			return options.mode === 'entries' && row ? row.data.length : 0;
		});
	},
};

/** Forgets everything recorded and the call log (between tests). */
function clearDedupStore() {
	rows = new Map();
	lengths.clear();
	loaded = true;
	calls = [];
	save();
}

/** Every store call since the last clear: method, values passed, entries in the row after it, ms. */
function dedupStoreCalls() {
	return calls.map((call) => ({ ...call }));
}

/**
 * The stored JSON text of every row (to copy one and write it back later, as a worker that read
 * the row before another wrote it would), or `set` it.
 */
const dedupStoreRows = {
	/** @returns {Record<string, string>} */
	get: () => Object.fromEntries(rows),
	/** @param {Record<string, string>} values */
	set: (values) => {
		rows = new Map(Object.entries(values));
		lengths.clear();
		loaded = true;
		save();
	},
};

module.exports = { inMemoryDeduplicator, clearDedupStore, dedupStoreCalls, dedupStoreRows, hashForStore: hash };
