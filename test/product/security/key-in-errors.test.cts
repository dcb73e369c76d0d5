import type { Emulator } from '../node/fixture.cts';
import {
	fileItem,
	mediaBytes,
	runEventPics,
	startEmulator,
	uploadParameters,
} from '../node/fixture.cts';

/**
 * Threat: a server echoes the API key back in an error, not as it was sent but encoded: base64 (as in
 * a Basic header or a token dump), URL-encoded (as in a logged address), JSON-escaped (a key holding
 * `"` or `\` inside a JSON string, or a JSON document inside a string), and inside `details`. Plain
 * redaction missed these; every such form must be blanked out of the error and everything saved.
 * Issue 29 narrowed the forms to these, the ones an API plausibly echoes: hex, HTML entities,
 * `\u` escapes of every character and base64 wrapped over lines are no longer looked for.
 */
describe('security: the key is redacted from errors in every form an API echoes', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

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
			parameters: { resource: 'event', operation: 'getAll', returnAll: true },
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
				parameters: { resource: 'event', operation: 'getAll', returnAll: true },
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
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());

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
			parameters: { resource: 'event', operation: 'getAll', returnAll: true },
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
