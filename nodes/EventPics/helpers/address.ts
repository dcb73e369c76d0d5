import { trimRuns } from './text';

/*
 * Whether a URL's host is internal, by its literal form (resolving names is the egress filter's
 * part). Hosts come as WHATWG URL gives them: odd IPv4 spellings (`2130706433`, `0177.0.0.1`,
 * `127.1`) already dotted quads, IPv6 bracketed and lower case, names lower case and punycode.
 */

const V4_RANGES: Array<[string, ...string[]]> = [
	['an unspecified ("this network") address', '0.0.0.0/8'],
	['a private address', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
	['a shared (CGNAT) address', '100.64.0.0/10'],
	['a loopback address', '127.0.0.0/8'],
	['a link-local address (cloud metadata lives at 169.254.169.254)', '169.254.0.0/16'],
	['a reserved address', '192.0.0.0/24'],
	['a documentation address', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'],
	['a benchmarking address', '198.18.0.0/15'],
	['a multicast address', '224.0.0.0/4'],
	['a reserved or broadcast address', '240.0.0.0/4'],
];

function parseV4(host: string): number[] | undefined {
	if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined;
	const parts = host.split('.').map(Number);
	return parts.every((n) => n <= 255) ? parts : undefined;
}

const v4Number = (parts: number[]) => parts.reduce((sum, part) => sum * 256 + part, 0);

function classifyV4(parts: number[]): string | undefined {
	const inRange = (cidr: string) => {
		const [base, bits] = cidr.split('/');
		// the same first `bits` bits (XOR and AND work on 32-bit integers)
		return ((v4Number(parts) ^ v4Number(parseV4(base)!)) & (-1 << (32 - Number(bits)))) === 0;
	};
	return V4_RANGES.find(([, ...ranges]) => ranges.some(inRange))?.[0];
}

/** The eight 16-bit groups of an IPv6 address (as WHATWG URL serializes it: no embedded dotted quad). */
function parseV6(host: string): number[] | undefined {
	const halves = host.split('::');
	if (halves.length > 2) return undefined;
	const groups = (text: string) => (text === '' ? [] : text.split(':').map((g) => parseInt(g, 16)));
	const head = groups(halves[0]);
	const tail = halves.length === 2 ? groups(halves[1]) : [];
	const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
	const all = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...tail];
	return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
		? all
		: undefined;
}

function classifyV6(g: number[]): string | undefined {
	const zerosUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
	if (g.every((x) => x === 0)) return 'the unspecified address';
	if (zerosUpTo(7) && g[7] === 1) return 'a loopback address';
	if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	if ((g[0] & 0xffc0) === 0xfec0) return 'a site-local address';
	if ((g[0] & 0xfe00) === 0xfc00) return 'a unique-local address';
	if ((g[0] & 0xff00) === 0xff00) return 'a multicast address';
	if ((g[0] === 0x2001 && g[1] === 0x0db8) || g[0] === 0x3fff) return 'a documentation address';
	// IPv6 forms that carry an IPv4 address: mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
	// translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::a.b.c.d and 64:ff9b:1::/48, 6to4 2002:AABB:CCDD::
	const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
	const last =
		(zerosUpTo(5) && (g[5] === 0xffff || g[5] === 0)) ||
		(zerosUpTo(4) && g[4] === 0xffff && g[5] === 0) ||
		(g[0] === 0x64 && g[1] === 0xff9b && (g[2] === 0 || g[2] === 1));
	const v4 = last ? quad(g[6], g[7]) : g[0] === 0x2002 ? quad(g[1], g[2]) : undefined;
	const inner = v4 && classifyV4(v4);
	return inner ? `${inner} (${v4.join('.')}) in IPv6 form` : undefined;
}

function classifyName(name: string): string | undefined {
	if (name === 'localhost' || name.endsWith('.localhost'))
		return 'a name of this machine (localhost)';
	if (name.endsWith('.internal'))
		return 'a name of an internal network (*.internal, for example a cloud metadata service)';
	if (name.endsWith('.local')) return 'a name of the local network (*.local)';
	if (name.endsWith('.home.arpa') || name === 'home.arpa')
		return 'a name of a home network (*.home.arpa)';
	if (!name.includes('.')) return 'a name without a dot, which only a local network resolves';
	return undefined;
}

/** Why a hostname is internal, or undefined when it is not one of the forms above. */
export function internalHostReason(hostname: string): string | undefined {
	const host = trimRuns(hostname.toLowerCase(), '.', false);
	if (host.startsWith('[') && host.endsWith(']')) {
		const groups = parseV6(host.slice(1, -1));
		return groups ? classifyV6(groups) : 'an IPv6 address that cannot be read';
	}
	const v4 = parseV4(host);
	if (v4) return classifyV4(v4);
	if (host === '') return 'an empty host name';
	return classifyName(host);
}
