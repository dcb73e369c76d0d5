// @ts-check
'use strict';

/**
 * An in-memory stand-in for n8n's database-backed deduplication store (the one behind
 * `helpers.checkProcessedAndRecord`, used by Remove Duplicates). It follows n8n's behaviour for
 * mode 'entries': values are kept as md5 hashes per workflow and context ('n:<node id>' for scope
 * 'node'), new values are recorded, `maxEntries` keeps the newest, `removeProcessed` forgets values.
 * It lives as long as the process, so several runs of one workflow see what earlier runs recorded.
 */

const crypto = require('node:crypto');

/** @type {Map<string, { mode: string, data: string[] }>} */
const store = new Map();

/**
 * @param {import('n8n-workflow').DeduplicationScope} scope
 * @param {import('n8n-workflow').ICheckProcessedContextData} contextData
 */
function storeKey(scope, contextData) {
	if (scope === 'node' && !contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
	const context = scope === 'node' ? `n:${contextData.node?.id}` : '';
	return `${contextData.workflow.id}|${context}`;
}

/** @param {unknown} value */
const hash = (value) => crypto.createHash('md5').update(String(value)).digest('base64');

/** @param {import('n8n-workflow').ICheckProcessedOptions} options */
function assertEntries(options) {
	if (options.mode !== 'entries') throw new Error(`The harness store supports mode "entries" only (got "${options.mode}")`);
}

/** @type {import('n8n-workflow').IDataDeduplicator} */
const inMemoryDeduplicator = {
	async checkProcessedAndRecord(items, scope, contextData, options) {
		assertEntries(options);
		const key = storeKey(scope, contextData);
		const record = store.get(key) ?? { mode: options.mode, data: [] };
		if (record.mode !== options.mode) throw new Error('Deduplication data was saved with another mode');
		const result = { new: /** @type {typeof items} */ ([]), processed: /** @type {typeof items} */ ([]) };
		for (const item of items) {
			const hashed = hash(item);
			if (record.data.includes(hashed)) result.processed.push(item);
			else {
				result.new.push(item);
				record.data.push(hashed);
			}
		}
		if (options.maxEntries) record.data.splice(0, Math.max(0, record.data.length - options.maxEntries));
		store.set(key, record);
		return result;
	},
	async removeProcessed(items, scope, contextData, options) {
		assertEntries(options);
		const record = store.get(storeKey(scope, contextData));
		if (!record) return;
		for (const item of items) {
			const index = record.data.indexOf(hash(item));
			if (index !== -1) record.data.splice(index, 1);
		}
	},
	async clearAllProcessedItems(scope, contextData) {
		store.delete(storeKey(scope, contextData));
	},
	async getProcessedDataCount(scope, contextData, options) {
		return options.mode === 'entries' ? (store.get(storeKey(scope, contextData))?.data.length ?? 0) : 0;
	},
};

/** Forgets everything recorded (between tests). */
function clearDedupStore() {
	store.clear();
}

module.exports = { inMemoryDeduplicator, clearDedupStore };
