// @ts-check
'use strict';

/**
 * Does the engine harness's deduplication store (dedup-store.js) answer as n8n's own? Runs one
 * script of calls through both: n8n's DeduplicationHelper (n8n/dist/deduplication, the class behind
 * `helpers.checkProcessedAndRecord` in the app) over an in-memory ProcessedDataRepository that keeps
 * each row as the JSON text the database would hold, and the harness store. Every answer and the
 * stored list after every call must be the same. Needs the n8n install of test/tools/n8n-app and
 * its Node (`npm run test:n8n` runs it):
 *
 *   <n8n's node> test/tools/engine/dedup-parity.js        prints one line, exit 1 on a difference
 */

const assert = require('node:assert/strict');
const path = require('node:path');
const { n8nDir } = require('../n8n-app/paths');

const fromApp = (/** @type {string} */ name) => require(path.join(n8nDir, 'node_modules', name));

/** n8n's store over a repository that keeps rows as JSON text, as SQLite does. */
function realStore() {
	const { Container } = fromApp('@n8n/di');
	const { ProcessedDataRepository } = fromApp('@n8n/db');
	/** @type {Map<string, string>} */
	const rows = new Map();
	const id = (/** @type {any} */ w) => `${w.workflowId}|${w.context}`;
	const repository = {
		async findOne(/** @type {any} */ { where }) {
			const text = rows.get(id(where));
			return text === undefined ? null : { ...where, value: JSON.parse(text) };
		},
		async insert(/** @type {any} */ entity) {
			if (rows.has(id(entity))) throw new Error('duplicate key value violates unique constraint');
			rows.set(id(entity), JSON.stringify(entity.value));
		},
		async update(/** @type {any} */ where, /** @type {any} */ entity) {
			rows.set(id(where), JSON.stringify(entity.value));
		},
		async delete(/** @type {any} */ where) {
			rows.delete(id(where));
		},
	};
	Container.set(ProcessedDataRepository, repository);
	const { DeduplicationHelper } = fromApp('n8n/dist/deduplication/deduplication-helper');
	return { store: new DeduplicationHelper(), rows: () => Object.fromEntries(rows) };
}

function harnessStore() {
	const { inMemoryDeduplicator, clearDedupStore, dedupStoreRows } = require('./dedup-store');
	clearDedupStore();
	return { store: inMemoryDeduplicator, rows: () => dedupStoreRows.get() };
}

const context = { workflow: { id: 'parity' }, node: { id: 'node-1' } };
const entries = (/** @type {number} */ max) => ({ mode: 'entries', maxEntries: max });

/** The script: [method, ...args]; every answer and the rows after each call are compared. */
const SCRIPT = [
	['getProcessedDataCount', 'node', context, entries(5)],
	// the first call inserts: duplicates within it are all new and all kept; past maxEntries, the newest
	['checkProcessedAndRecord', ['a', 'b', 'a', 'c', 'd', 'e', 'f'], 'node', context, entries(5)],
	['checkProcessedAndRecord', ['a', 'f', 'g', 'g', 'h'], 'node', context, entries(5)],
	['getProcessedDataCount', 'node', context, entries(5)],
	['removeProcessed', ['g', 'zz', 'h'], 'node', context, entries(5)],
	['checkProcessedAndRecord', [1, 2, 'g'], 'node', context, entries(5)],
	['checkProcessedAndRecord', ['x'], 'workflow', context, entries(3)],
	['checkProcessedAndRecord', ['x', 'y'], 'workflow', context, { mode: 'latestIncrementalKey' }],
	['clearAllProcessedItems', 'node', context, entries(5)],
	['getProcessedDataCount', 'node', context, entries(5)],
];

/** @param {any} store @param {any[]} call */
async function answer(store, [method, ...args]) {
	try {
		return { value: await store[method](...args) };
	} catch (error) {
		return { error: /** @type {Error} */ (error).message };
	}
}

async function main() {
	const real = realStore();
	const harness = harnessStore();
	for (const call of SCRIPT) {
		const expected = await answer(real.store, call);
		const got = await answer(harness.store, call);
		const label = `${call[0]}(${JSON.stringify(call[1])}, ...)`;
		if (expected.error?.includes('Invalid mode') || expected.error?.includes('incompatible')) {
			// the harness refuses the other modes with its own words: only that both refuse counts
			assert.ok(got.error, `${label}: n8n refused (${expected.error}), the harness did not`);
		} else assert.deepEqual(got, expected, `${label}: the harness answered otherwise`);
		const rows = (/** @type {Record<string, string>} */ r) =>
			Object.fromEntries(Object.entries(r).map(([k, v]) => [k, JSON.parse(v)]));
		assert.deepEqual(rows(harness.rows()), rows(real.rows()), `${label}: the stored lists differ`);
	}
	process.stdout.write(
		`dedup-parity: ${SCRIPT.length} calls, the harness store answered and stored as n8n's\n`,
	);
	process.stdout.write(`dedup-parity: ${await costs(real.store, harness.store)}\n`);
}

/**
 * What one call costs with 100,000 entries: both read, parse, rebuild and write the whole list
 * (n8n's without the database's own time here), so both grow with the list alike.
 * @param {any} real @param {any} harness
 */
async function costs(real, harness) {
	const seed = Array.from({ length: 100_000 }, (_, i) => `seed-${i}`);
	const big = { workflow: { id: 'cost' }, node: { id: 'node-1' } };
	/** @param {any} store */
	const time = async (store) => {
		await store.checkProcessedAndRecord(seed, 'node', big, entries(200_000));
		const started = process.hrtime.bigint();
		for (let i = 0; i < 5; i++) {
			const values = Array.from({ length: 200 }, (_, j) => `run-${i}-${j}`);
			await store.checkProcessedAndRecord(values, 'node', big, entries(200_000));
		}
		return Number(process.hrtime.bigint() - started) / 1e6 / 5;
	};
	const n8nMs = await time(real);
	const harnessMs = await time(harness);
	return `a call with 100,000 entries takes ${n8nMs.toFixed(0)} ms in n8n's store (its database's time not included), ${harnessMs.toFixed(0)} ms in the harness`;
}

main().catch((error) => {
	console.error(`dedup-parity: ${error.message}`);
	process.exit(1);
});
