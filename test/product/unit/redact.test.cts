import {
	redact,
	redactCapped,
	redactDetails,
	REDACTED,
} from '../../../nodes/EventPics/transport/redact';
import { secretForms } from '../../../nodes/EventPics/transport/secretForms';

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
		const clean = JSON.stringify(redactDetails(details, 4000, KEY));
		expect(clean).not.toContain('0123456789');
		expect(clean).toContain('fine');
	});

	it('leaves text without the key alone; a short key is redacted as it is, its short encodings are not applied', () => {
		expect(redact('nothing to see', KEY)).toBe('nothing to see');
		expect(redact('key abc, YWJj', 'abc')).toBe(`key ${REDACTED}, YWJj`);
	});

	it('a cut text keeps no part of a key that starts after the cut, however much the redactions before it shorten the text', () => {
		const max = 1000;
		const encoded = Buffer.from(KEY).toString('base64');
		// five keys before the cut, each replaced by a shorter REDACTED, then one that starts just past
		// the cut and runs past the end of the longest form's reach
		const before = Array.from({ length: 5 }, () => `${encoded} `).join('');
		const start = max + secretForms(KEY)[0].length - 10;
		const text = `${before}${'m'.repeat(start - before.length)}${encoded}${'m'.repeat(5000)}`;
		const result = redactCapped(text, max, KEY);
		expect(result).toContain(REDACTED);
		expect(result).toMatch(/… \(\d+ more characters not shown\)$/);
		expect(result).not.toContain(encoded.slice(0, 8));
	});
});
