import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { call, put, uploadUrlFor } from './testkit.cts';
import { DEMO_API_KEY } from './seed';

const CLI = path.join(__dirname, 'cli.js');

interface Running {
	child: ChildProcessWithoutNullStreams;
	out: () => string;
	baseUrl: string;
	storageUrl: string;
	exit: Promise<number | null>;
}

async function startCli(args: string[], viaNpm = false): Promise<Running> {
	const child = viaNpm
		? spawn('npm', ['run', '--silent', 'emulator', '--', ...args], {
				stdio: 'pipe',
				cwd: path.join(__dirname, '..', '..', '..'),
			})
		: spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' });
	let out = '';
	child.stdout.on('data', (c) => (out += c));
	child.stderr.on('data', (c) => (out += c));
	const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	await new Promise<void>((resolve, reject) => {
		// `npm run` alone takes seconds on a loaded 2-core machine: the wait for the banner is generous
		const timer = setTimeout(() => reject(new Error(`CLI did not start:\n${out}`)), 20_000);
		const check = () => {
			if (out.includes('Press Ctrl-C to stop.')) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout.on('data', check);
		exit.then(() => reject(new Error(`CLI exited:\n${out}`)));
	});
	const base = /Base URL[^:]*: (http:\/\/\S+)/.exec(out)?.[1] ?? '';
	const storage = /Object storage: +(http:\/\/\S+)/.exec(out)?.[1] ?? '';
	return { child, out: () => out, baseUrl: base, storageUrl: storage, exit };
}

let dir: string;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventpics-cli-test-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('prints base URL, storage URL, demo key and page address; serves; stops cleanly on SIGTERM', async () => {
	const cli = await startCli([
		'--port',
		'0',
		'--storage-port',
		'0',
		'--ttl',
		'42',
		'--storage-dir',
		dir,
	]);
	expect(cli.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(cli.storageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(cli.storageUrl).not.toBe(cli.baseUrl);
	expect(cli.out()).toContain(`Demo API key:                     ${DEMO_API_KEY}`);
	expect(cli.out()).toContain(`Page (events, albums, uploads):   ${cli.baseUrl}/`);
	const emuLike = { baseUrl: cli.baseUrl, apiKey: DEMO_API_KEY } as never;
	const res = await call(`${cli.baseUrl}/geteventsandalbums`, {
		headers: { authorization: `Bearer ${DEMO_API_KEY}` },
	});
	expect(res.status).toBe(200);
	const url = await uploadUrlFor(emuLike);
	expect(new URL(url).searchParams.get('X-EP-Expires')).toBe('42');
	expect(url.startsWith(cli.storageUrl)).toBe(true);
	expect((await put(url, 'hello')).status).toBe(200);
	const before = cli.out();
	cli.child.kill('SIGTERM');
	expect(await cli.exit).toBe(0);
	expect(cli.out()).toContain('SIGTERM: stopping the EventPics emulator.');
	// no request or key was logged while serving
	expect(cli.out().slice(before.length)).not.toContain(DEMO_API_KEY);
	expect(cli.out().match(new RegExp(DEMO_API_KEY, 'g'))).toHaveLength(1);
	await expect(call(`${cli.baseUrl}/`)).rejects.toThrow();
});

test('stops on SIGINT (Ctrl-C); stored uploads are listed again after a restart on the same folder', async () => {
	const first = await startCli(['--port', '0', '--storage-port', '0', '--storage-dir', dir]);
	const url = await uploadUrlFor({ baseUrl: first.baseUrl, apiKey: DEMO_API_KEY } as never, {
		fileName: 'kept.jpg',
	});
	expect((await put(url, 'kept')).status).toBe(200);
	first.child.kill('SIGINT');
	expect(await first.exit).toBe(0);
	const second = await startCli(['--port', '0', '--storage-port', '0', '--storage-dir', dir]);
	try {
		const uploads = JSON.parse((await call(`${second.baseUrl}/__control/uploads`)).text).uploads;
		expect(uploads.map((u: { fileName: string }) => u.fileName)).toEqual(['kept.jpg']);
		expect((await call(`${second.baseUrl}/`)).text).toContain('kept.jpg');
	} finally {
		second.child.kill('SIGTERM');
		expect(await second.exit).toBe(0);
	}
});

test('an unknown flag is refused with exit code 1', async () => {
	const child = spawn(process.execPath, [CLI, '--host', '0.0.0.0'], { stdio: 'pipe' });
	let err = '';
	child.stderr.on('data', (c) => (err += c));
	const code = await new Promise((resolve) => child.on('exit', resolve));
	expect(code).toBe(1);
	expect(err).toContain('Unknown flag --host');
});

test('`npm run emulator` stops when npm gets SIGTERM (the shell between them does not pass it on)', async () => {
	const cli = await startCli(['--port', '0', '--storage-port', '0', '--storage-dir', dir], true);
	expect((await call(`${cli.baseUrl}/`)).status).toBe(200);
	cli.child.kill('SIGTERM');
	await cli.exit;
	// the emulator itself (a grandchild of this test) must be gone soon after: its port stops answering
	const deadline = Date.now() + 5000;
	let stillServing = true;
	while (stillServing && Date.now() < deadline) {
		stillServing = await call(`${cli.baseUrl}/`).then(
			() => true,
			() => false,
		);
		if (stillServing) await new Promise((resolve) => setTimeout(resolve, 100));
	}
	expect({ stillServing, out: cli.out() }).toEqual({
		stillServing: false,
		out: expect.stringContaining('stopping the EventPics emulator'),
	});
});
