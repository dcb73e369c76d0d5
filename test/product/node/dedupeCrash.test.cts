import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Emulator } from './fixture.cts';
import {
	binaryFromFile,
	mediaBytes,
	runEventPics,
	startEmulator,
	uploadParameters,
} from './fixture.cts';

const FILES = 24;
const KILL_AFTER = 16;

/**
 * n8n killed in the middle of a run (a crash, an out-of-memory kill, a redeploy): the run is the
 * compiled node in the real engine in a child process whose deduplication store lives in a file
 * (as n8n's lives in its database), EventPics answers getuploadurl after 300 ms, and the child gets
 * SIGKILL once 16 of 24 files arrived. The next run, on the same store, must store every file that
 * had not arrived; a file it skips must have arrived; and files confirmed a while before the kill were
 * recorded already (they are skipped, not sent again). (Before issue 20 the key was written before
 * the upload: the files in flight at the kill were skipped ever after without having arrived.)
 */
describe('Skip Files Uploaded Before after n8n was killed in the middle of a run', () => {
	let emu: Emulator;
	const work = mkdtempSync(join(tmpdir(), 'eventpics-crash-'));
	const folder = join(work, 'files');
	const storeFile = join(work, 'dedup-store.json');
	const names = Array.from({ length: FILES }, (_, i) => `crash-${String(i).padStart(2, '0')}.jpg`);
	beforeAll(async () => {
		emu = await startEmulator();
		mkdirSync(folder);
		for (const name of names) writeFileSync(join(folder, name), mediaBytes(3000));
	});
	afterAll(async () => {
		await emu.close();
		delete process.env.N8N_HARNESS_DEDUP_FILE;
		rmSync(work, { recursive: true, force: true });
	});

	it('the next run stores every file that had not arrived', async () => {
		// a file killed while it waits for its upload address never arrives
		emu.addFault({ endpoint: 'getuploadurl', kind: 'delay', ms: 300 });
		const env: NodeJS.ProcessEnv = { ...process.env, N8N_HARNESS_DEDUP_FILE: storeFile };
		delete env.N8N_USER_FOLDER; // the child makes its own n8n folder
		delete env.N8N_BINARY_DATA_STORAGE_PATH;
		const child = spawn(
			process.execPath,
			[join(__dirname, 'crashChild.js'), emu.baseUrl, emu.apiKey, folder],
			{ env, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		const exited = new Promise((resolve) => child.once('exit', resolve));
		const deadline = Date.now() + 40_000;
		while (emu.uploads.length < KILL_AFTER && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		child.kill('SIGKILL');
		expect(await exited).toBeNull(); // killed, not finished
		await new Promise((resolve) => setTimeout(resolve, 300)); // what was on its way is stored
		expect(output).not.toMatch(/finished/);
		const arrived = new Set(emu.uploads.map((upload) => String(upload.fileName)));
		expect(arrived.size).toBeGreaterThanOrEqual(KILL_AFTER);
		expect(arrived.size).toBeLessThan(FILES);

		emu.reset();
		process.env.N8N_HARNESS_DEDUP_FILE = storeFile;
		const { items, status } = await runEventPics({
			emu,
			parameters: uploadParameters({
				takenAtMode: 'none',
				options: { skipUploaded: { settings: { identifyBy: 'content' } }, concurrency: 4 },
			}),
			inputItems: names.map((name) => ({
				json: {},
				binary: { data: binaryFromFile(join(folder, name), { fileName: name }) },
			})),
		});
		expect(status).toBe('success');
		const skipped = items.filter((item) => item.json.outcome === 'skipped');
		const storedNow = emu.uploads.map((upload) => String(upload.fileName));
		for (const item of skipped) expect(arrived).toContain(item.json.fileName);
		expect(names.filter((name) => !arrived.has(name) && !storedNow.includes(name))).toEqual([]);
		expect(new Set(storedNow).size).toBe(storedNow.length);
		expect(skipped.length + storedNow.length).toBe(FILES);
		// what the kill cost: files that had arrived and were sent again (their key not yet written);
		// confirmed files are recorded during the run (in batches, about one a second), so some were
		const sentAgain = storedNow.filter((name) => arrived.has(name));
		expect(sentAgain.length + skipped.length).toBe(arrived.size);
		expect(skipped.length).toBeGreaterThan(0);
	});
});
