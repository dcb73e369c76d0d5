import type { Emulator, RunResult } from './fixture.cts';
import {
	binaryFromBuffer,
	callListSearch,
	credentialTypes,
	fromList,
	mediaBytes,
	NODE_TYPE,
	nodeTypes,
	runEventPics,
	startEmulator,
	uploadParameters,
} from './fixture.cts';

const photo = () => ({
	binary: {
		data: binaryFromBuffer(mediaBytes(2000), { fileName: 'k.jpg', mimeType: 'image/jpeg' }),
	},
});

/**
 * The API key goes to the service (header, and the body of getuploadurl) and nowhere else: not in
 * any output item, error, error description, log line, nor in the PUT to the storage.
 */
describe('the API key never leaks', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	const assertNoKey = (result: RunResult, key: string) => {
		const everything = result.text();
		expect(everything.length).toBeGreaterThan(100);
		expect(everything).not.toContain(key);
		for (const line of result.logs) expect(JSON.stringify(line)).not.toContain(key);
		for (const request of emu.requests.filter((r) => r.server === 'storage')) {
			expect(JSON.stringify(request)).not.toContain(key);
		}
	};

	/** A fault: `status` from `endpoint`, with a JSON body made with the emulator's key. */
	const answer =
		(endpoint: string, status: number, body?: (key: string) => object) => (e: Emulator) =>
			e.addFault({
				endpoint,
				kind: 'status',
				status,
				body: body && JSON.stringify(body(e.apiKey)),
			});
	const scenarios: Array<[string, (emu: Emulator) => void, object]> = [
		['a successful upload', () => undefined, {}],
		[
			'a 401 from getuploadurl that echoes the key',
			answer('getuploadurl', 401, (key) => ({
				code: 'UNAUTHORIZED',
				message: `Unknown key ${key}`,
				details: { apiKey: key },
			})),
			{},
		],
		[
			'a 400 from getuploadurl',
			answer('getuploadurl', 400, (key) => ({
				code: 'BAD',
				details: { request: { apiKey: key } },
			})),
			{},
		],
		[
			'429s until attempts run out',
			(e) => e.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 429, retryAfter: 0 }),
			{ maxAttempts: 2 },
		],
		...['getuploadurl', 'geteventsandalbums'].map(
			(endpoint): [string, (emu: Emulator) => void, object] => [
				`a connection reset on ${endpoint}`,
				(e) => e.addFault({ endpoint, kind: 'reset' }),
				{ maxAttempts: 2 },
			],
		),
		['a PUT refused for good', answer('put', 403), {}],
		[
			'a 200 that is not JSON',
			(e) => e.addFault({ endpoint: 'getuploadurl', kind: 'badJson', body: `oops ${e.apiKey}` }),
			{},
		],
	];

	it.each(scenarios)(
		'in %s (stopping on the error, and with Continue On Fail)',
		async (_name, arrange, options) => {
			for (const continueOnFail of [false, true]) {
				emu.reset();
				arrange(emu);
				const result = await runEventPics({
					emu,
					continueOnFail,
					parameters: uploadParameters({ options }),
					inputItems: [photo(), photo()],
				});
				if (continueOnFail) expect(result.items).toHaveLength(2);
				assertNoKey(result, emu.apiKey);
			}
		},
	);

	it('in the error of a bad key (the key sent is not shown back)', async () => {
		const badKey = 'ep_typo_0123456789abcdef';
		const result = await runEventPics({
			emu,
			apiKey: badKey,
			parameters: { resource: 'event', operation: 'getAll', returnAll: true },
		});
		expect(result.nodeError?.httpCode).toBe('401');
		assertNoKey(result, badKey);
	});

	it('in a dropdown error', async () => {
		const search = () =>
			callListSearch({
				nodeType: NODE_TYPE,
				nodeTypes,
				credentialTypes,
				credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
				methodName: 'searchEvents',
				parameters: {},
			});
		const echo = (key: string) => ({ code: 'REFUSED', message: `bad key ${key}` });
		// a refusal the dropdown passes on with the service's words: the key in them is blanked out
		answer('geteventsandalbums', 403, echo)(emu);
		await expect(search()).rejects.toThrow('with 403: REFUSED: bad key [redacted API key]');
		// a 401 says the credential's key was refused, in the node's own words only
		emu.reset();
		answer('geteventsandalbums', 401, echo)(emu);
		const refusal = await search().catch(
			(error: { message: string; description?: string }) => error,
		);
		expect(refusal?.message).toBe('EventPics refused the API key of the credential');
		expect(JSON.stringify([refusal, refusal?.description])).not.toContain(emu.apiKey);
	});
});
