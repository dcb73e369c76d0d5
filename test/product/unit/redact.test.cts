import { redact, redactDeep, REDACTED } from '../../../nodes/EventPics/transport/redact';

/** The key in base64 at every byte offset, with text before and after it, and in its other encodings. */
describe('redact', () => {
	const KEY = 'ep_live_"q\\uo/+?&=te key 0123456789';

	it.each(['', 'a', 'ab', 'abc', 'Bearer ', 'user:'])(
		'finds the key in base64 and base64url after %p',
		(before) => {
			for (const after of ['', 'z', 'zz', ' tail']) {
				const bytes = Buffer.from(before + KEY + after);
				for (const encoded of [bytes.toString('base64'), bytes.toString('base64url')]) {
					expect(redact(`<${encoded}>`, KEY)).toContain(REDACTED);
				}
			}
		},
	);

	it.each([
		['JSON-escaped', JSON.stringify({ k: KEY })],
		['JSON-escaped twice', JSON.stringify(JSON.stringify({ k: KEY }))],
		['URL-encoded', `https://x.test/?k=${encodeURIComponent(KEY)}`],
		['form-encoded', `k=${encodeURIComponent(KEY).replace(/%20/g, '+')}`],
	])('finds the key %s', (_name, text) => {
		const result = redact(text, KEY);
		expect(result).toContain(REDACTED);
		expect(result).not.toContain('0123456789');
	});

	it('walks details: values and property names, at any depth up to 8', () => {
		const details = { [KEY]: [{ deep: { sent: KEY } }], note: 'fine' };
		const clean = JSON.stringify(redactDeep(details, KEY));
		expect(clean).not.toContain('0123456789');
		expect(clean).toContain('fine');
	});

	it('leaves text without the key alone; a short key is redacted as it is, its short encodings are not applied', () => {
		expect(redact('nothing to see', KEY)).toBe('nothing to see');
		expect(redact('key abc, YWJj', 'abc')).toBe(`key ${REDACTED}, YWJj`);
	});
});
