import {
	binaryFromBuffer,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from '../node/fixture.cts';

const named = (fileName: string, mimeType = 'image/jpeg') => ({
	binary: { data: binaryFromBuffer(mediaBytes(700), { fileName, mimeType }) },
});

/** Characters that change how a name looks without being seen. */
const INVISIBLE =
	/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;

/**
 * Threat: names and values that look harmless but are not. A right-to-left override makes
 * "photo\u202Egpj.exe" show as "photoexe.jpg"; zero-width characters and BOMs make two names that
 * look the same differ. Taken At values far outside any real photo's time are sent as they are. An
 * unknown binary id says only "File not found".
 */
describe('security: names and values are what they look like', () => {
	const emu = useEmulator();

	it('"photo\\u202Egpj.exe" does not go up looking like a .jpg: the override is removed', async () => {
		const result = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters(),
			inputItems: [named('photo\u202egpj.exe')],
		});
		const shown = JSON.stringify(result.items);
		expect(shown).toContain('photogpj.exe');
		expect(shown).not.toContain('\u202e');
		for (const upload of emu.uploads) expect(upload.fileName).toBe('photogpj.exe');
		for (const request of emu.requests)
			expect(decodeURIComponent(request.url)).not.toMatch(INVISIBLE);
	});

	it.each([
		[
			'bidi embeddings and isolates',
			'\u202aBooth\u202c \u2066one\u2069\u200e\u200f\u061c.jpg',
			'Booth one.jpg',
		],
		['zero-width characters', 'bo\u200both\u200c\u200d\u2060.jpg', 'booth.jpg'],
		['a BOM in front', '\ufeffbooth.jpg', 'booth.jpg'],
		['control characters, CR/LF and NUL', 'bo\u0000oth\r\n\u0085.jpg', 'booth.jpg'],
	])('%s are removed from the name sent', async (_what, fileName, expected) => {
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [named(fileName)],
		});
		expect(result.items[0].json).toMatchObject({ fileName: expected, statusCode: 200 });
		expect(emu.uploads.map((upload) => upload.fileName)).toEqual([expected]);
	});

	it('the File Name option is cleaned the same way', async () => {
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ options: { fileName: '={{ "invoice\\u202Efdp.jpg" }}' } }),
			inputItems: [named('x.jpg')],
		});
		expect(result.items[0].json.fileName).toBe('invoicefdp.jpg');
	});

	it.each([
		['={{ 1e20 }}', '100000000000000000000 is outside the accepted range'],
		['={{ 0 }}', '0 is not a positive Unix timestamp'],
		['={{ -86400000 }}', '-86400000 is not a positive Unix timestamp'],
		['={{ DateTime.fromObject({ year: -5 }) }}', 'is outside the accepted range, 1970-01-01 to'],
		['9999-12-31T00:00:00Z', '"9999-12-31T00:00:00Z" is outside the accepted range'],
	])('Taken At %s is refused, naming the field', async (takenAt, reason) => {
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ takenAt: { source: 'value', value: takenAt } }),
			inputItems: [named('t.jpg')],
		});
		expect(result.nodeError?.message).toContain('"Taken At" cannot be read: ');
		expect(result.nodeError?.message).toContain(reason);
		expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(0);
	});

	it('Taken At within the range still goes through (a camera clock a month ahead)', async () => {
		const ahead = Date.now() + 30 * 24 * 3600 * 1000;
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ takenAt: { source: 'value', value: String(ahead) } }),
			inputItems: [named('t.jpg')],
		});
		expect(result.items[0].json).toMatchObject({ takenAtMs: ahead, takenAtSource: 'value' });
	});

	it('an unknown binary id names the item and the field instead of a bare "File not found"', async () => {
		const missing = {
			id: 'filesystem-v2:workflows/none/executions/none/binary_data/00000000-0000-0000-0000-000000000000',
			data: 'filesystem-v2',
			mimeType: 'image/jpeg',
			fileName: 'gone.jpg',
		};
		const result = await runEventPics({
			emu,
			parameters: uploadParameters(),
			inputItems: [{ binary: { data: missing } }],
		});
		expect(result.nodeError?.message).toMatch(
			/^The stored file of binary field "data" cannot be found in n8n's binary data \(id "filesystem-v2:.+"\)/,
		);
		expect(result.nodeError?.description).toBe(
			'Run the node that produced the file again in this workflow, so that its file is stored anew.',
		);
	});
});
