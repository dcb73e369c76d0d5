// @ts-check
'use strict';

/**
 * What `npm run test:queue` checks, in order, on a running queue-mode n8n (see run.js):
 *   1. N files (default 500) in executions of 50 posted at once, first with one worker, then
 *      with two: every file stored exactly once, which worker ran what, the time of each
 *   2. the same files again on both workers: Skip Files Uploaded Before (n8n's processed-data
 *      store in Postgres) skips every one, nothing is stored
 *   3. a 429 storm (the emulator allows 10 requests a second) while both workers upload:
 *      everything arrives, nothing twice
 *   4. failures answered (guests.js): Respond to Webhook answers with a refused file's item; the
 *      guest form example thanks the guest or names the files that did not arrive
 *   5. one large file in `database` binary mode, by default the largest n8n can read back from
 *      Postgres (just under 256 MiB): uploaded, the workers' memory measured; and a file one byte
 *      larger: a clear error in the answer, and the workers keep working
 */

const assert = require('node:assert/strict');
const { sampleMemory } = require('./cluster');
const { makePhotos, runLoad, byWorker, assertExactlyOnce, postBatch } = require('./load');
const { failuresAnswered } = require('./guests');

/** n8n's largest readable file in database mode (mirrors nodes/EventPics/actions/photo/file.ts: DATABASE_READ_LIMIT). */
const DATABASE_READ_LIMIT_BYTES = Math.floor((0x1fffffe8 - 2) / 2);

/**
 * @typedef {object} Context
 * @property {any} emulator
 * @property {import('../n8n-app/n8n').N8nServer} server
 * @property {{ files: number, perExecution: number, workerConcurrency: number, rounds: number, largeMiB: number | undefined, skipLarge: boolean, onlyLarge: boolean }} options
 * @property {(message: string) => void} step
 * @property {(name: string) => Promise<import('./cluster').Worker>} newWorker
 */

/**
 * @param {Context} ctx
 * @param {Array<{ executionId: string, results: any[] }>} answers
 * @param {import('./cluster').Worker[]} workers
 */
function report(ctx, answers, workers) {
	for (const [name, row] of byWorker(answers, workers)) {
		ctx.step(
			`    ${name}: ${row.executions.length} executions (${row.executions.join(', ')}), ${row.files} files`,
		);
	}
}

/** @param {any[]} results */
function allUploaded(results) {
	const bad = results.filter((r) => r.outcome !== 'uploaded' || r.statusCode !== 200);
	assert.deepEqual(bad.slice(0, 3), [], `${bad.length} files not uploaded`);
	assert.ok(
		results.every((r) => r.binaryDataMode === 'database'),
		'the node did not report binary data mode "database"',
	);
}

/** @param {Context} ctx */
async function scaleOut(ctx) {
	const url = `${ctx.server.url}/webhook/queue-batch`;
	const { files, perExecution } = ctx.options;
	const first = await ctx.newWorker('worker-1');
	/** @type {{ one: number[], two: number[] }} */
	const timings = { one: [], two: [] };
	/** @type {import('./load').Photo[][]} */
	const sets = [];
	/** @type {import('./cluster').Worker | undefined} */
	let second;
	for (let round = 1; round <= ctx.options.rounds; round++) {
		if (second) await second.stop();
		const one = makePhotos(`r${round}-one-worker`, files);
		const a = await runLoad(url, one, perExecution);
		allUploaded(a.answers.flatMap((answer) => answer.results));
		assertExactlyOnce(ctx.emulator.uploads, one);
		timings.one.push(a.seconds);
		ctx.step(
			`ok  ${files} files, ${a.answers.length} executions, 1 worker: ${a.seconds.toFixed(1)} s, each stored once`,
		);
		report(ctx, a.answers, [first]);

		second = await ctx.newWorker(`worker-2-r${round}`);
		const two = makePhotos(`r${round}-two-workers`, files);
		const b = await runLoad(url, two, perExecution);
		allUploaded(b.answers.flatMap((answer) => answer.results));
		assertExactlyOnce(ctx.emulator.uploads, two);
		timings.two.push(b.seconds);
		ctx.step(
			`ok  ${files} files, ${b.answers.length} executions, 2 workers: ${b.seconds.toFixed(1)} s, each stored once`,
		);
		const table = byWorker(b.answers, [first, second]);
		report(ctx, b.answers, [first, second]);
		assert.ok(
			table.has(first.name) && table.has(second.name),
			'the executions did not spread over both workers',
		);
		sets.push(one, two);
	}
	const list = (/** @type {number[]} */ xs) => xs.map((x) => `${x.toFixed(1)} s`).join(', ');
	ctx.step(
		`    timings for ${files} files: 1 worker ${list(timings.one)}; 2 workers ${list(timings.two)}`,
	);
	return { workers: [first, /** @type {import('./cluster').Worker} */ (second)], sets };
}

/**
 * @param {Context} ctx
 * @param {import('./cluster').Worker[]} workers
 * @param {import('./load').Photo[][]} sets
 */
async function secondPass(ctx, workers, sets) {
	const url = `${ctx.server.url}/webhook/queue-batch`;
	const before = ctx.emulator.uploads.length;
	const photos = sets.flat();
	const run = await runLoad(url, photos, ctx.options.perExecution);
	const results = run.answers.flatMap((answer) => answer.results);
	assert.equal(results.length, photos.length);
	const uploaded = results.filter((r) => r.outcome !== 'skipped');
	assert.deepEqual(
		uploaded.slice(0, 3).map((r) => r.fileName ?? r.error),
		[],
		`${uploaded.length} of ${photos.length} files were not skipped on the second pass`,
	);
	assert.equal(ctx.emulator.uploads.length, before, 'the second pass stored files');
	ctx.step(
		`ok  second pass of ${photos.length} files on both workers: all skipped, nothing stored (${run.seconds.toFixed(1)} s)`,
	);
	report(ctx, run.answers, workers);
}

/**
 * @param {Context} ctx
 * @param {import('./cluster').Worker[]} workers
 */
async function rateLimitStorm(ctx, workers) {
	const url = `${ctx.server.url}/webhook/queue-batch`;
	const photos = makePhotos('storm', 120);
	const requestsBefore = ctx.emulator.requests.length;
	ctx.emulator.setOptions({ rateLimitPerSecond: 10 });
	try {
		const run = await runLoad(url, photos, 20);
		const results = run.answers.flatMap((answer) => answer.results);
		allUploaded(results);
		assertExactlyOnce(ctx.emulator.uploads, photos);
		const requests = ctx.emulator.requests.slice(requestsBefore);
		const refused = requests.filter((/** @type {any} */ r) => r.status === 429).length;
		assert.ok(refused > 0, 'the rate limit never answered 429: no storm happened');
		const retried = results.filter((r) => r.attempts > 1).length;
		const signs = requests.filter(
			(/** @type {any} */ r) => r.method === 'POST' && r.url.startsWith('/getuploadurl'),
		);
		const signsRefused = signs.filter((/** @type {any} */ r) => r.status === 429).length;
		const share = signs.length === 0 ? 0 : (100 * signsRefused) / signs.length;
		ctx.step(
			`ok  429 storm (10 requests/s allowed), 120 files on both workers: all stored once in ${run.seconds.toFixed(1)} s (ideal ${((photos.length * 2) / 10).toFixed(0)} s); ${refused} of ${requests.length} requests answered 429 (getuploadurl: ${signsRefused} of ${signs.length}, ${share.toFixed(1)}%), ${retried} files needed more than one try`,
		);
		report(ctx, run.answers, workers);
	} finally {
		ctx.emulator.setOptions({ rateLimitPerSecond: 0 });
	}
}

/**
 * @param {Context} ctx
 * @param {import('./cluster').Worker[]} workers
 * @param {number} bytes
 */
async function largeFile(ctx, workers, bytes) {
	const [photo] = makePhotos(`large-${bytes}`, 1, bytes);
	const samplers = workers.map((worker) => ({ worker, sampler: sampleMemory(worker.rssMiB) }));
	const started = Date.now();
	const answer = await postBatch(`${ctx.server.url}/webhook/queue-large`, [
		{ ...photo, name: photo.name },
	]).catch((error) => ({ executionId: '?', results: [{ error: String(error) }] }));
	const seconds = (Date.now() - started) / 1000;
	const memory = samplers.map(({ worker, sampler }) => ({ worker, ...sampler.stop() }));
	const ran = memory.find((m) => m.worker.executions().includes(String(answer.executionId)));
	for (const m of memory) {
		ctx.step(
			`    ${m.worker.name}${m === ran ? ' (ran it)' : ''}: RSS ${m.beforeMiB.toFixed(0)} MiB before, peak ${m.peakMiB.toFixed(0)} MiB, ${m.afterMiB.toFixed(0)} MiB after`,
		);
	}
	return { photo, answer, seconds, ran };
}

/**
 * @param {Context} ctx
 * @param {import('./cluster').Worker[]} workers
 */
async function largeFiles(ctx, workers) {
	const bytes = ctx.options.largeMiB
		? ctx.options.largeMiB * 1024 * 1024
		: DATABASE_READ_LIMIT_BYTES;
	const big = await largeFile(ctx, workers, bytes);
	const [result] = big.answer.results;
	assert.equal(
		result.statusCode,
		200,
		`the large file was not uploaded: ${JSON.stringify(result)}`,
	);
	assertExactlyOnce(ctx.emulator.uploads, [big.photo]);
	assert.equal(result.binaryDataMode, 'database');
	assert.match(String(result.warnings), /held whole in memory/);
	ctx.step(
		`ok  one file of ${bytes} bytes (${(bytes / 1048576).toFixed(1)} MiB${bytes === DATABASE_READ_LIMIT_BYTES ? ', the largest n8n can read back from Postgres' : ''}) in database mode uploaded in ${big.seconds.toFixed(1)} s (above: worker memory)`,
	);

	const over = await largeFile(ctx, workers, DATABASE_READ_LIMIT_BYTES + 1);
	// the failed file's item, in Respond to Webhook's answer (see guests.js for why it once was empty)
	const [refusal] = over.answer.results;
	const message =
		/The file in binary field "f0" \([^)]*\) is too large to read from n8n's database/.exec(
			String(refusal?.error),
		);
	assert.ok(message, `the answer does not name the refusal: ${JSON.stringify(refusal)}`);
	assert.equal(refusal.outcome, 'failed');
	assert.ok(!ctx.emulator.uploads.some((/** @type {any} */ u) => u.fileName === over.photo.name));
	ctx.step(
		`ok  a file 1 byte over the database read limit: "${message[0]}" (${over.seconds.toFixed(1)} s)`,
	);
	const after = makePhotos('after-large', 20);
	const again = await runLoad(`${ctx.server.url}/webhook/queue-batch`, after, 10);
	allUploaded(again.answers.flatMap((answer) => answer.results));
	assertExactlyOnce(ctx.emulator.uploads, after);
	ctx.step('ok  both workers still run executions after the refusal');
}

/** @param {Context} ctx */
async function runAll(ctx) {
	if (ctx.options.onlyLarge) {
		const workers = [await ctx.newWorker('worker-1'), await ctx.newWorker('worker-2')];
		return await largeFiles(ctx, workers);
	}
	const { workers, sets } = await scaleOut(ctx);
	await secondPass(ctx, workers, sets);
	await rateLimitStorm(ctx, workers);
	await failuresAnswered(ctx);
	if (!ctx.options.skipLarge) await largeFiles(ctx, workers);
}

module.exports = { runAll, DATABASE_READ_LIMIT_BYTES };
