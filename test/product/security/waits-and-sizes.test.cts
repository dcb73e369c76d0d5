import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
	GET_ALL_EVENTS,
} from '../node/fixture.cts';

const photo = (name = 'w.jpg') => ({
	binary: { data: binaryFromBuffer(mediaBytes(800), { fileName: name, mimeType: 'image/jpeg' }) },
});

/** Seconds a run took, from the engine's start to its end. */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
	const started = Date.now();
	const result = await run();
	return [result, (Date.now() - started) / 1000];
}

/**
 * Threat: a server that is slow on purpose (one byte every few seconds, a body without end, a
 * Retry-After of weeks) or that answers with hundreds of MB holds the node, the workflow and its
 * memory for as long as it likes. Every call gets a total deadline, the PUT a stall timeout, Max
 * Total Wait bounds every wait, answers and errors are capped. The bounds below are generous upper
 * limits that only a hang breaks; they are not speed measurements.
 */
describe('security: every wait is bounded and every answer capped', () => {
	const emu = useEmulator();

	it('getuploadurl dripping one byte every 300 ms ends at the deadline (Timeout 1 s), though it never goes idle for 1 s', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'drip', ms: 300 });
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({ options: { timeoutSeconds: 1, maxAttempts: 1 } }),
				inputItems: [photo()],
			}),
		);
		expect(result.nodeError?.message).toBe(
			'EventPics did not answer the request for an upload address within 1 s, so the node stopped waiting',
		);
		expect(result.nodeError?.description).toContain('raise Options > "Timeout (Seconds)"');
		expect(seconds).toBeGreaterThanOrEqual(0.95);
		expect(seconds).toBeLessThan(15);
	});

	it('the events list dripping is cut at the deadline too, and the error reports the real time of all tries', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'drip', ms: 300 });
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({ options: { timeoutSeconds: 1, maxAttempts: 2 } }),
				inputItems: [photo()],
			}),
		);
		expect(result.nodeError?.message).toBe(
			'EventPics did not answer the request for the events list within 1 s, so the node stopped waiting',
		);
		// two tries of 1 s each plus a short backoff: the real time, not the ~0.5 s of sleeping
		const reported = Number(
			/Tried 2 times over about (\d+) s\.$/.exec(String(result.nodeError?.description))?.[1],
		);
		expect(reported).toBeGreaterThanOrEqual(2);
		expect(reported).toBeLessThanOrEqual(Math.ceil(seconds));
		expect(emu.requests.filter((r) => r.url === '/geteventsandalbums')).toHaveLength(2);
	});

	it('an events list that never ends is cut after 4 MiB', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'endless' });
		const result = await runEventPics({
			emu,
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.message).toBe(
			'EventPics answered the request for the events list with more than 4 MiB, more than such an answer can be, so the node stopped reading it',
		);
	});

	it('a 100 MB getuploadurl answer is refused after 64 KiB', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'huge', bytes: 100 * 1024 * 1024 });
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [photo()],
		});
		expect(result.nodeError?.message).toBe(
			'EventPics answered the request for an upload address with more than 64 KiB, more than such an answer can be, so the node stopped reading it',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a 400 with a 50 MB message leaves a small error, not 50 MB of run data', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'huge', status: 400, bytes: 50 * 1024 * 1024 });
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [photo()],
		});
		expect(result.nodeError?.message).toBe(
			'EventPics answered the request for an upload address with more than 64 KiB, more than such an answer can be, so the node stopped reading it',
		);
		expect(result.text().length).toBeLessThan(30_000);
	});

	it('a 400 with a 30 KB message and 30 KB of details is cut to a few KB in the error', async () => {
		const long = 'm'.repeat(30_000);
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 400,
			body: JSON.stringify({
				code: 'TOO_LONG',
				message: long,
				details: { echo: 'd'.repeat(30_000) },
			}),
		});
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [photo()],
		});
		const error = result.nodeError!;
		expect(error.message).toMatch(
			/^EventPics refused the request for an upload address \(400\): TOO_LONG: m{1000}… \(29000 more characters not shown\)$/,
		);
		expect(String(error.description).length).toBeLessThan(2100);
		expect(JSON.stringify(error).length).toBeLessThan(20_000);
		expect(result.text().length).toBeLessThan(40_000);
	});

	it('the storage answering the PUT with a 50 MB error is cut after 64 KiB', async () => {
		emu.addFault({ endpoint: 'put', kind: 'huge', status: 500, bytes: 50 * 1024 * 1024 });
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ options: { maxAttempts: 1 } }),
			inputItems: [photo()],
		});
		expect(result.nodeError?.message).toBe(
			'The storage answered the upload with more than 64 KiB, more than such an answer can be, so the node stopped reading it',
		);
		expect(result.text().length).toBeLessThan(30_000);
	});

	it.each(['0.001', '0', '0.5'])(
		'Retry-After: %s on the events list: every retry waits at least the backoff floor, within Max Attempts',
		async (retryAfter) => {
			emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 429, retryAfter });
			const result = await runEventPics({
				emu,
				parameters: uploadParameters({ options: { maxAttempts: 3 } }),
				inputItems: [photo()],
			});
			expect(result.nodeError?.httpCode).toBe('429');
			const calls = emu.requests.filter((r) => r.url.startsWith('/geteventsandalbums'));
			// a sub-second wait is no pacing: each request counts against Max Attempts
			expect(calls).toHaveLength(3);
			// half of the first backoff step (500 ms) at least, whatever the server asked
			const gaps = calls.slice(1).map((call, i) => call.startedAt - calls[i].startedAt);
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(240);
		},
	);

	it('a Retry-After of 40 s with Max Total Wait 5 s ends at once and says what was asked and the limit', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 429, retryAfter: 40 });
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({ options: { maxTotalWaitSeconds: 5 } }),
				inputItems: [photo()],
			}),
		);
		expect(result.nodeError?.message).toBe('EventPics limited the request rate of this key (429)');
		expect(result.nodeError?.description).toContain(
			'EventPics asked to wait 40 s before the next try (Retry-After), more than the 5 s left of Options > "Max Total Wait (Seconds)", so the node stopped at once instead of waiting.',
		);
		expect(seconds).toBeLessThan(4);
	});

	it.each([
		['0', { retryAfter: 0 }],
		['-1', { retryAfter: '-1' }],
		['a date a minute ago', { retryAfterDateIn: -60 }],
	])(
		'a Retry-After of %s asks for no wait: the tries still back off, never back to back',
		async (_, retryAfter) => {
			// on the PUT: its tries reuse the address, so no pacing of getuploadurl spaces them
			emu.addFault({ endpoint: 'put', kind: 'status', status: 429, ...retryAfter });
			const result = await runEventPics({
				emu,
				parameters: uploadParameters({ options: { maxAttempts: 3 } }),
				inputItems: [photo()],
			});
			expect(result.nodeError?.message).toBe(
				'The storage limited the request rate (429): SlowDown: Please reduce your request rate.',
			);
			const sent = emu.requests.filter((r) => r.method === 'PUT').map((r) => r.startedAt);
			expect(sent).toHaveLength(3);
			// the first backoff is 250-500 ms (before: 8 tries in about no time)
			for (let i = 1; i < sent.length; i++)
				expect(sent[i] - sent[i - 1]).toBeGreaterThanOrEqual(240);
		},
	);

	it('a Retry-After of 3000000 s holds neither the file nor the others: the shared pause is cut to Max Total Wait', async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 429,
			retryAfter: 3000000,
			times: 1,
		});
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				continueOnFail: true,
				parameters: uploadParameters({ options: { maxTotalWaitSeconds: 2, concurrency: 1 } }),
				inputItems: [photo('first.jpg'), photo('second.jpg')],
			}),
		);
		expect(result.items[0].json.error).toBe('EventPics limited the request rate of this key (429)');
		expect(result.items[1].json).toMatchObject({ fileName: 'second.jpg', statusCode: 200 });
		// the second file waited for the pause (2 s at most), not for 34 days
		expect(seconds).toBeGreaterThanOrEqual(1.5);
		expect(seconds).toBeLessThan(15);
	});

	it('a PUT that stalls (storage reads nothing) ends after the stall timeout', async () => {
		emu.addFault({ endpoint: 'put', kind: 'delay', ms: 5000 });
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({ options: { timeoutSeconds: 1, maxAttempts: 1 } }),
				inputItems: [photo()],
			}),
		);
		// the 800 bytes fit in the connection's buffers: what stops is the answer after the last byte
		expect(result.nodeError?.message).toBe(
			'The upload stalled: all 800 bytes were sent, then no answer came within 1 s (Timeout) of the time its last bytes could arrive',
		);
		expect(result.nodeError?.description).toContain(
			'The connection to the storage stopped moving data.',
		);
		expect(seconds).toBeLessThan(4.5);
	});

	it('a PUT whose answer drips (headers, then a byte every 300 ms) ends Timeout after the headers', async () => {
		// each byte of the answer used to restart the wait: such a storage held the node for weeks
		emu.addFault({ endpoint: 'put', kind: 'drip', ms: 300 });
		const [result, seconds] = await timed(() =>
			runEventPics({
				emu,
				parameters: uploadParameters({ options: { timeoutSeconds: 1, maxAttempts: 1 } }),
				inputItems: [photo()],
			}),
		);
		expect(result.nodeError?.message).toBe(
			'The upload stalled: the storage began to answer, but its answer did not end within 1 s (Timeout)',
		);
		expect(emu.uploads).toHaveLength(0);
		expect(seconds).toBeLessThan(30);
	});
});
