import type { Emulator, RunResult } from '../node/fixture.cts';
import {
	fileItem,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
	searchList,
	GET_ALL_EVENTS,
} from '../node/fixture.cts';

const emu = useEmulator();

/**
 * The API key goes to the service (header, and the body of getuploadurl) and nowhere else: not in
 * any output item, error, error description, log line, nor in the PUT to the storage.
 */
describe('the API key never leaks', () => {
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
					inputItems: [
						fileItem('k.jpg', mediaBytes(2000), 'image/jpeg'),
						fileItem('l.jpg', mediaBytes(2000), 'image/jpeg'),
					],
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
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.httpCode).toBe('401');
		assertNoKey(result, badKey);
	});

	it('in a dropdown error', async () => {
		const search = () => searchList(emu, {});
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

/**
 * Threat: a server echoes the API key back in an error, not as it was sent but encoded: base64 (as in
 * a Basic header or a token dump), URL-encoded (as in a logged address), JSON-escaped (a key holding
 * `"` or `\` inside a JSON string, or a JSON document inside a string), and inside `details`. Plain
 * redaction missed these; every such form must be blanked out of the error and everything saved.
 * Issue 29 narrowed the forms to these, the ones an API plausibly echoes: hex, HTML entities,
 * `\u` escapes of every character and base64 wrapped over lines are no longer looked for.
 */
describe('security: the key is redacted from errors in every form an API echoes', () => {
	/** A key with the characters that change under each encoding. */
	const KEY = 'ep_live_"quo\\te/+?&=key 0123456789';

	const forms = (key: string) => ({
		raw: key,
		json: JSON.stringify(key).slice(1, -1),
		jsonTwice: JSON.stringify(JSON.stringify(key)).slice(1, -1),
		jsonPhp: JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
		url: encodeURIComponent(key),
		urlLowerCase: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
		form: encodeURIComponent(key).replace(/%20/g, '+'),
		base64: Buffer.from(key).toString('base64'),
		base64InBearer: Buffer.from(`Bearer ${key}`).toString('base64'),
		base64url: Buffer.from(`x${key}`).toString('base64url'),
		// a host name or a logged header may come back in other letter case (issue 39)
		lowerCase: key.toLowerCase(),
		upperCase: key.toUpperCase(),
	});

	const echoing = (key: string) =>
		JSON.stringify({
			code: 'ECHO',
			message: `key=${forms(key).url} auth=${forms(key).base64InBearer} raw=${key}`,
			details: {
				sent: key,
				nested: JSON.stringify({ apiKey: key }),
				encoded: Object.values(forms(key)),
			},
		});

	const expectNoForm = (text: string, key: string) => {
		for (const [name, form] of Object.entries(forms(key))) {
			expect({ name, found: text.includes(form) }).toEqual({ name, found: false });
		}
		// the redaction is there, so the test is not passing on an empty error
		expect(text).toContain('[redacted API key]');
	};

	it('a 401 of the events list echoing a key that holds " and \\ in every form', async () => {
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 401,
			body: echoing(KEY),
		});
		const result = await runEventPics({
			emu,
			apiKey: KEY,
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.httpCode).toBe('401');
		expectNoForm(result.text(), KEY);
	});

	it('a 400 of getuploadurl echoing the key in every form, in the error items of an upload (Continue On Fail)', async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 400,
			body: echoing(emu.apiKey),
		});
		const result = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters(),
			inputItems: [fileItem('k.jpg', mediaBytes(300), 'image/jpeg')],
		});
		expect(result.items[0].json.error).toContain('(400): ECHO: key=[redacted API key] auth=');
		expectNoForm(result.text(), emu.apiKey);
	});

	/** A form of the key, where the key's own characters start in it, and the first of them. */
	const base64 = () => Buffer.from(KEY).toString('base64');
	it.each([
		['raw', () => KEY, 0, KEY.slice(0, 6)],
		['in base64', base64, 0, base64().slice(0, 6)],
	])(
		'a long message with the key %s across the point where it is cut: no part of the key is shown',
		async (_how, form, keyStart, keyHead) => {
			const before = 990 - keyStart;
			const message = `${'m'.repeat(before)}${form()}${'m'.repeat(30_000)}`;
			emu.addFault({
				endpoint: 'geteventsandalbums',
				kind: 'status',
				status: 400, // a 401's message is the node's own; the service's words are in its details
				body: JSON.stringify({ code: 'ECHO', message }),
			});
			const result = await runEventPics({
				emu,
				apiKey: KEY,
				parameters: GET_ALL_EVENTS,
			});
			const shown = String(result.nodeError?.message);
			expect(shown).toMatch(/… \(\d+ more characters not shown\)$/);
			// cut before the key, not inside it (JSON shows the line breaks as \r\n)
			const everything = result.text().replace(/\\r\\n/g, '');
			expect(everything).not.toContain(keyHead);
			expect(everything).toContain('m'.repeat(before));
		},
	);
});

describe("security: the key across the cut of an error's details", () => {
	it('a key across the 4,000-character mark of the details is redacted before the cut: no 6 of its characters are shown', async () => {
		const KEY = 'pk_Live/Key+AbC=123_secretXYZ';
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 400,
			body: JSON.stringify({ code: 'BAD_REQUEST', details: { t: `${'d'.repeat(3973)}${KEY}` } }),
		});
		const result = await runEventPics({
			emu,
			apiKey: KEY,
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.httpCode).toBe('400');
		const everything = result.text();
		expect(everything).toContain('d'.repeat(1000));
		for (let at = 0; at + 6 <= KEY.length; at++)
			expect({ at, shown: everything.includes(KEY.slice(at, at + 6)) }).toEqual({
				at,
				shown: false,
			});
	});
});
