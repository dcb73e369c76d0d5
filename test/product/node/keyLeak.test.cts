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

const upload = uploadParameters;
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

	const scenarios: Array<[string, (emu: Emulator) => void, object]> = [
		['a successful upload', () => undefined, {}],
		[
			'a 401 from getuploadurl that echoes the key',
			(e) =>
				e.addFault({
					endpoint: 'getuploadurl',
					kind: 'status',
					status: 401,
					body: JSON.stringify({
						code: 'UNAUTHORIZED',
						message: `Unknown key ${e.apiKey}`,
						details: { apiKey: e.apiKey },
					}),
				}),
			{},
		],
		[
			'a 400 from getuploadurl',
			(e) =>
				e.addFault({
					endpoint: 'getuploadurl',
					kind: 'status',
					status: 400,
					body: JSON.stringify({
						code: 'BAD',
						message: 'bad',
						details: { request: { apiKey: e.apiKey } },
					}),
				}),
			{},
		],
		[
			'429s until attempts run out',
			(e) => e.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 429, retryAfter: 0 }),
			{ maxAttempts: 2 },
		],
		[
			'a connection reset on getuploadurl',
			(e) => e.addFault({ endpoint: 'getuploadurl', kind: 'reset' }),
			{ maxAttempts: 2 },
		],
		[
			'a connection reset on the events list',
			(e) => e.addFault({ endpoint: 'geteventsandalbums', kind: 'reset' }),
			{ maxAttempts: 2 },
		],
		[
			'a PUT refused for good',
			(e) => e.addFault({ endpoint: 'put', kind: 'status', status: 403 }),
			{},
		],
		[
			'a 200 that is not JSON',
			(e) => e.addFault({ endpoint: 'getuploadurl', kind: 'badJson', body: `oops ${e.apiKey}` }),
			{},
		],
	];

	it.each(scenarios)('in %s (stopping on the error)', async (_name, arrange, options) => {
		arrange(emu);
		const result = await runEventPics({
			emu,
			parameters: upload({ options }),
			inputItems: [photo()],
		});
		assertNoKey(result, emu.apiKey);
	});

	it.each(scenarios)(
		'in %s (Continue On Fail, error in the output)',
		async (_name, arrange, options) => {
			arrange(emu);
			const result = await runEventPics({
				emu,
				continueOnFail: true,
				parameters: upload({ options }),
				inputItems: [photo(), photo()],
			});
			expect(result.items).toHaveLength(2);
			assertNoKey(result, emu.apiKey);
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
		// a refusal the dropdown passes on with the service's words: the key in them is blanked out
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 403,
			body: JSON.stringify({ code: 'FORBIDDEN', message: `bad key ${emu.apiKey}` }),
		});
		await expect(search()).rejects.toThrow('with 403: FORBIDDEN: bad key [redacted API key]');
		// a 401 says the credential's key was refused, in the node's own words only
		emu.reset();
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 401,
			body: JSON.stringify({ code: 'UNAUTHORIZED', message: `bad key ${emu.apiKey}` }),
		});
		const refusal = await search().then(
			() => undefined,
			(error: unknown) => error as { message: string; description?: string },
		);
		expect(refusal?.message).toBe('EventPics refused the API key of the credential');
		expect(
			JSON.stringify({ ...refusal, message: refusal?.message, description: refusal?.description }),
		).not.toContain(emu.apiKey);
	});
});
