import { EventPicsError, wordsOf } from '../../../nodes/EventPics/helpers/errors';
import { redact, redactDetails, REDACTED } from '../../../nodes/EventPics/helpers/redact';

/** A key with every character that an encoding changes: quotes, backslash, slash, plus, space. */
const KEY = 'ep_live_"q\\uo/+?&=te key 0123456789';

describe('redact: the key in every form an API plausibly echoes it, in any letter case', () => {
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

	const json = JSON.stringify({ k: KEY });
	it.each([
		['as typed', `key ${KEY}.`],
		['lower-cased', KEY.toLowerCase()],
		['upper-cased', KEY.toUpperCase()],
		['JSON-escaped', json],
		['JSON-escaped twice', JSON.stringify(json)],
		['JSON-escaped with \\/ (as PHP writes it)', json.replace(/\//g, '\\/')],
		['URL-encoded', `https://x.test/?k=${encodeURIComponent(KEY)}`],
		['URL-encoded with lower-case escapes', encodeURIComponent(KEY).toLowerCase()],
		['form-encoded', `k=${encodeURIComponent(KEY).replace(/%20/g, '+')}`],
	])('finds the key %s', (_name, text) => {
		const result = redact(text, KEY);
		expect(result).toContain(REDACTED);
		expect(result).not.toMatch(/0123456789|ep_live/i);
	});

	it('leaves text without the key alone; a short key is redacted as it is, its short encodings are not applied', () => {
		expect(redact('nothing to see', KEY)).toBe('nothing to see');
		expect(redact('nothing to see', undefined)).toBe('nothing to see');
		expect(redact('key abc, YWJj', 'abc')).toBe(`key ${REDACTED}, YWJj`);
	});
});

describe('redactDetails: every string and key redacted whole, then the JSON cut', () => {
	it('walks values and property names, at any depth up to 8', () => {
		const details = { [KEY]: [{ deep: { sent: KEY } }], note: 'fine' };
		const clean = JSON.stringify(redactDetails(details, 4000, KEY));
		expect(clean).not.toContain('0123456789');
		expect(clean).toContain('fine');
		let deep: unknown = KEY;
		for (let level = 0; level < 10; level++) deep = { level: deep };
		expect(JSON.stringify(redactDetails(deep, 4000, KEY))).toContain('"[nested too deep]"');
	});

	it('finds the \\/ form inside a string of the details (JSON inside JSON)', () => {
		const echoed = JSON.stringify({ k: KEY }).replace(/\//g, '\\/');
		const clean = JSON.stringify(redactDetails({ raw: echoed, [echoed]: 1 }, 4000, KEY));
		expect(clean).not.toContain('0123456789');
		expect(clean.split(REDACTED)).toHaveLength(3);
	});

	it('a key across the 4,000-character mark is redacted before the cut: no part of it is shown', () => {
		// '{"message":"' then the padding: the key (and its replacement) starts 1 to 16 characters before the mark
		for (let padding = 3972; padding <= 3987; padding++) {
			const shown = redactDetails({ message: `${'m'.repeat(padding)}${KEY} tail` }, 4000, KEY);
			// what is kept before the cut ends with the start of the replacement, never of the key
			const [kept, note] = String(shown).split('…');
			expect(REDACTED.startsWith(kept.replace(/^\{"message":"m+/, ''))).toBe(true);
			expect(kept).toMatch(/m\[/);
			expect(note).toMatch(/^ \(\d+ more characters not shown\)$/);
		}
	});

	it('keeps a value whose JSON fits as it is', () => {
		expect(redactDetails({ a: [1, 'two', null] }, 4000, KEY)).toEqual({ a: [1, 'two', null] });
		expect(redactDetails(undefined, 4000, KEY)).toBeNull();
	});
});

test("wordsOf: the service's words are redacted whole, then cut, in the message an error shows", () => {
	const encoded = Buffer.from(KEY).toString('base64');
	const error = new EventPicsError('badRequest', {
		step: 'put',
		statusCode: 400,
		// the key across the 100-character mark of the code, and across the 1,000 of the message
		said: {
			code: `${'c'.repeat(95)}${KEY}`,
			message: `${'m'.repeat(990)}${encoded}${'x'.repeat(3000)}`,
		},
	});
	const { message } = wordsOf(error, KEY);
	expect(message).toMatch(
		/^The storage refused the upload \(400\): c{95}\[reda… \(13 more characters not shown\): m{990}\[redacted … \(3010 more characters not shown\)$/,
	);
	expect(message).not.toContain(encoded.slice(0, 8));
	expect(message).not.toContain('ep_');
});
