import { randomBytes } from 'node:crypto';

import type { Emulator } from '../node/fixture.cts';
import { binaryFromBuffer, runEventPics, startEmulator, uploadParameters } from '../node/fixture.cts';

/**
 * Threat: a server echoes the API key back in an error, not as it was sent but encoded: base64 (as in
 * a Basic header or a token dump), URL-encoded (as in a logged address), JSON-escaped (a key holding
 * `"` or `\` inside a JSON string, or a JSON document inside a string), and inside `details`. Plain
 * redaction missed these; every form must be blanked out of the error and everything saved.
 */
describe('security: the key is redacted from errors in every encoding', () => {
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
		url: encodeURIComponent(key),
		form: encodeURIComponent(key).replace(/%20/g, '+'),
		base64: Buffer.from(key).toString('base64'),
		base64InBearer: Buffer.from(`Bearer ${key}`).toString('base64'),
		base64url: Buffer.from(`x${key}`).toString('base64url'),
	});

	const echoing = (key: string) =>
		JSON.stringify({
			code: 'ECHO',
			message: `key=${forms(key).url} auth=${forms(key).base64InBearer} raw=${key}`,
			details: {
				sent: key,
				nested: JSON.stringify({ apiKey: key }),
				encoded: [forms(key).base64, forms(key).base64url, forms(key).form],
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
			inputItems: [
				{
					binary: {
						data: binaryFromBuffer(randomBytes(300), { fileName: 'k.jpg', mimeType: 'image/jpeg' }),
					},
				},
			],
		});
		expect(result.items[0].json.error).toContain(
			'answered 400: ECHO: key=[redacted API key] auth=',
		);
		expectNoForm(result.text(), emu.apiKey);
	});
});
