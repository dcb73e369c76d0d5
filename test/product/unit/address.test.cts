import { internalHostReason } from '../../../nodes/EventPics/helpers/address';

/** The hostname as the node sees it: after WHATWG URL parsing, as `new URL()` normalizes it. */
const hostOf = (url: string) => new URL(url).hostname;
const reason = (url: string) => internalHostReason(hostOf(url));

describe('internalHostReason: what the URL source refuses by default', () => {
	it.each([
		['http://127.0.0.1/', 'a loopback address'],
		['http://127.255.255.254/', 'a loopback address'],
		['http://10.0.0.1/', 'a private address'],
		['http://172.16.0.1/', 'a private address'],
		['http://172.31.255.255/', 'a private address'],
		['http://192.168.1.1/', 'a private address'],
		['http://100.64.0.1/', 'a shared (CGNAT) address'],
		['http://100.127.255.255/', 'a shared (CGNAT) address'],
		[
			'http://169.254.169.254/latest/meta-data/',
			'a link-local address (cloud metadata lives at 169.254.169.254)',
		],
		['http://0.0.0.0/', 'an unspecified ("this network") address'],
		['http://224.0.0.1/', 'a multicast address'],
		['http://255.255.255.255/', 'a reserved or broadcast address'],
		['http://[::1]/', 'a loopback address'],
		['http://[::]/', 'the unspecified address'],
		['http://[fe80::1]/', 'a link-local address'],
		['http://[febf::1]/', 'a link-local address'],
		['http://[fc00::1]/', 'a unique-local address'],
		['http://[fd12:3456::1]/', 'a unique-local address'],
		['http://[ff02::1]/', 'a multicast address'],
		['http://localhost/', 'a name of this machine (localhost)'],
		['http://LOCALHOST./', 'a name of this machine (localhost)'],
		['http://app.localhost/', 'a name of this machine (localhost)'],
		[
			'http://metadata.google.internal/computeMetadata/v1/',
			'a name of an internal network (*.internal, for example a cloud metadata service)',
		],
		['http://printer.local/', 'a name of the local network (*.local)'],
		['http://nas.home.arpa/', 'a name of a home network (*.home.arpa)'],
		['http://intranet/', 'a name without a dot, which only a local network resolves'],
	])('%s is %s', (url, expected) => {
		expect(reason(url)).toBe(expected);
	});

	it.each([
		// WHATWG URL turns these spellings of 127.0.0.1 into the dotted quad before the check sees them
		['decimal', 'http://2130706433/', '127.0.0.1'],
		['octal', 'http://0177.0.0.1/', '127.0.0.1'],
		['hex', 'http://0x7f.0x0.0x0.0x1/', '127.0.0.1'],
		['hex, one number', 'http://0x7f000001/', '127.0.0.1'],
		['short form', 'http://127.1/', '127.0.0.1'],
		['trailing dot', 'http://127.0.0.1./', '127.0.0.1'],
		['decimal metadata', 'http://2852039166/', '169.254.169.254'],
		['a lone zero', 'http://0/', '0.0.0.0'],
	])('odd IPv4 spelling (%s) %s is normalized and refused', (_name, url, normalized) => {
		expect(hostOf(url).replace(/\.$/, '')).toBe(normalized);
		expect(reason(url)).toBeDefined();
	});

	it.each([
		[
			'IPv4-mapped loopback',
			'http://[::ffff:127.0.0.1]/',
			'a loopback address (127.0.0.1) in IPv6 form',
		],
		[
			'IPv4-mapped metadata',
			'http://[::ffff:169.254.169.254]/',
			'a link-local address (cloud metadata lives at 169.254.169.254) (169.254.169.254) in IPv6 form',
		],
		[
			'IPv4-mapped private, hex groups',
			'http://[::ffff:a00:1]/',
			'a private address (10.0.0.1) in IPv6 form',
		],
		['IPv4-compatible', 'http://[::127.0.0.1]/', 'a loopback address (127.0.0.1) in IPv6 form'],
		[
			'IPv4-translated',
			'http://[::ffff:0:192.168.0.1]/',
			'a private address (192.168.0.1) in IPv6 form',
		],
		['NAT64', 'http://[64:ff9b::10.1.2.3]/', 'a private address (10.1.2.3) in IPv6 form'],
		['6to4', 'http://[2002:c0a8:101::1]/', 'a private address (192.168.1.1) in IPv6 form'],
	])('%s %s is refused', (_name, url, expected) => {
		expect(reason(url)).toBe(expected);
	});

	it.each([
		'https://example.com/photo.jpg',
		'https://photos.eventpics.net/a.jpg',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://100.128.0.1/',
		'http://169.253.1.1/',
		'http://[2606:4700::1111]/',
		'http://[::ffff:8.8.8.8]/',
		'http://[2002:0808:0808::1]/',
		'http://my-localhost.com/',
		'http://internal.example.com/',
	])('lets a public address through: %s', (url) => {
		expect(reason(url)).toBeUndefined();
	});
});
