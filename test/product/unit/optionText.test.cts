import { DateTime } from 'luxon';

import { duplicateKeyText, fileNameText } from '../../../nodes/EventPics/helpers/optionText';

describe('duplicateKeyText: a Duplicate Key as text, whatever an expression gave', () => {
	it('reads text, numbers, booleans and dates as written', () => {
		expect(duplicateKeyText('  abc ')).toEqual({ ok: true, text: 'abc' });
		expect(duplicateKeyText(42)).toEqual({ ok: true, text: '42' });
		expect(duplicateKeyText(false)).toEqual({ ok: true, text: 'false' });
		expect(duplicateKeyText(new Date('2026-06-20T18:30:00Z'))).toEqual({
			ok: true,
			text: '2026-06-20T18:30:00.000Z',
		});
		const luxon = DateTime.fromISO('2026-06-20T18:30:00+02:00', { setZone: true });
		expect(duplicateKeyText(luxon)).toEqual({ ok: true, text: '2026-06-20T18:30:00.000+02:00' });
		expect(duplicateKeyText(undefined)).toEqual({ ok: true, text: '' });
		expect(duplicateKeyText(null)).toEqual({ ok: true, text: '' });
	});

	it('writes objects and lists as JSON with sorted keys: equal objects, equal keys', () => {
		const one = duplicateKeyText({ b: [1, { y: 2, x: undefined }], a: 'x', when: new Date(0) });
		const two = duplicateKeyText({ when: new Date(0), a: 'x', b: [1, { y: 2 }] });
		expect(one).toEqual({ ok: true, text: '{"a":"x","b":[1,{"y":2}],"when":"1970-01-01T00:00:00.000Z"}' });
		expect(two).toEqual(one);
		expect(duplicateKeyText({ id: 'a' })).not.toEqual(duplicateKeyText({ id: 'b' }));
	});

	it('keeps a long key as its SHA-256', () => {
		const read = duplicateKeyText('k'.repeat(5000));
		expect(read).toEqual({ ok: true, text: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
	});

	it('refuses what cannot identify a file', () => {
		const cyclic: Record<string, unknown> = { a: 1 };
		cyclic.self = cyclic;
		expect(duplicateKeyText(cyclic)).toEqual({
			ok: false,
			reason: 'is or holds an object that contains itself, which cannot identify a file',
		});
		expect(duplicateKeyText(() => 1)).toEqual({
			ok: false,
			reason: 'is a function, which cannot identify a file',
		});
		expect(duplicateKeyText(Symbol('s'))).toMatchObject({ ok: false });
	});
});

describe('fileNameText: the File Name option as text', () => {
	it('takes text and numbers, refuses the rest', () => {
		expect(fileNameText('a.jpg')).toEqual({ ok: true, text: 'a.jpg' });
		expect(fileNameText(7)).toEqual({ ok: true, text: '7' });
		expect(fileNameText(undefined)).toEqual({ ok: true, text: '' });
		expect(fileNameText({ name: 'a.jpg' })).toEqual({ ok: false, reason: 'is an object, but must be text' });
		expect(fileNameText(['a'])).toEqual({ ok: false, reason: 'is a list, but must be text' });
		expect(fileNameText(NaN)).toEqual({ ok: false, reason: 'is a number, but must be text' });
	});
});
