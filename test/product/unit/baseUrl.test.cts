import { checkBaseUrl } from '../../../nodes/EventPics/helpers/baseUrl';

describe('checkBaseUrl', () => {
	it.each([
		[undefined, 'https://api.eventpics.net'],
		['', 'https://api.eventpics.net'],
		['https://api.eventpics.net/', 'https://api.eventpics.net'],
		['https://api.eventpics.net//', 'https://api.eventpics.net'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
		['http://localhost:8787/', 'http://localhost:8787'],
		['http://[::1]:8787', 'http://[::1]:8787'],
	])('accepts %p as %p', (input, url) => {
		expect(checkBaseUrl(input)).toEqual({ ok: true, url });
	});

	it('refuses plain http to another host, naming the risk', () => {
		expect(checkBaseUrl('http://api.eventpics.net')).toEqual({
			ok: false,
			reason:
				'"http://api.eventpics.net" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1, localhost or [::1]).',
		});
		expect(checkBaseUrl('http://192.168.1.5:8787').ok).toBe(false);
	});

	it.each([
		['http://127.1:8787', '127.0.0.1'],
		['http://2130706433:8787', '127.0.0.1'],
		['http://0x7f.0.0.1:8787', '127.0.0.1'],
		['http://127.000.000.001:8787', '127.0.0.1'],
		['http://[0:0:0:0:0:0:0:1]:8787', '[::1]'],
	])(
		'refuses the loopback spelling %p over http (only a URL parser reads it as %p)',
		(input, parsed) => {
			expect(checkBaseUrl(input)).toEqual({
				ok: false,
				reason: `"${input}" writes its host in another form than ${parsed}. For http:// write the host as 127.0.0.1, localhost or [::1] (http:// is accepted only for these).`,
			});
		},
	);

	it('refuses what is not an address', () => {
		expect(checkBaseUrl('api.eventpics.net')).toEqual({
			ok: false,
			reason:
				'"api.eventpics.net" does not start with https://. Add it in front: https://api.eventpics.net',
		});
		// host:port reads as a scheme to a URL parser: still an address without https://
		expect(checkBaseUrl('localhost:8787')).toEqual({
			ok: false,
			reason:
				'"localhost:8787" does not start with https://. Add it in front: https://localhost:8787',
		});
		// a password written without a scheme is never shown back
		expect(checkBaseUrl('me:s3cret@api.eventpics.net')).toEqual({
			ok: false,
			reason: '"…" does not start with https://. Add it in front: https://…',
		});
		expect(checkBaseUrl('ftp://api.eventpics.net')).toEqual({
			ok: false,
			reason: '"ftp://api.eventpics.net" must start with https://.',
		});
	});
});
