import { trimRuns } from './text';

/**
 * Whether the host of a URL is internal: a literal address in a loopback, private, link-local,
 * unique-local, shared (CGNAT), unspecified, multicast, broadcast or reserved range, an IPv6 form
 * that carries such an IPv4 address, or a name that only resolves inside a network (localhost,
 * *.localhost, *.local, *.internal, *.home.arpa, a name without a dot). Runtime code cannot
 * resolve DNS, so a public name that resolves to an internal address is not caught here.
 *
 * Takes the hostname as WHATWG URL gives it: odd IPv4 spellings (decimal `2130706433`, octal
 * `0177.0.0.1`, hex `0x7f.1`, short `127.1`) are already dotted quads, IPv6 is bracketed and
 * lower case, names are lower case and punycode.
 */

type V4Range = [number, number, number, number, number, string];

// [a, b, c, d, prefix length, what it is]
const V4_RANGES: V4Range[] = [
	[0, 0, 0, 0, 8, 'an unspecified ("this network") address'],
	[10, 0, 0, 0, 8, 'a private address'],
	[100, 64, 0, 0, 10, 'a shared (CGNAT) address'],
	[127, 0, 0, 0, 8, 'a loopback address'],
	[169, 254, 0, 0, 16, 'a link-local address (cloud metadata lives at 169.254.169.254)'],
	[172, 16, 0, 0, 12, 'a private address'],
	[192, 0, 0, 0, 24, 'a reserved address'],
	[192, 0, 2, 0, 24, 'a documentation address'],
	[192, 168, 0, 0, 16, 'a private address'],
	[198, 18, 0, 0, 15, 'a benchmarking address'],
	[198, 51, 100, 0, 24, 'a documentation address'],
	[203, 0, 113, 0, 24, 'a documentation address'],
	[224, 0, 0, 0, 4, 'a multicast address'],
	[240, 0, 0, 0, 4, 'a reserved or broadcast address'],
];

function v4Number(parts: number[]): number {
	return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

function parseV4(host: string): number[] | undefined {
	if (host.length > 15) return undefined; // 255.255.255.255
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	const numbers = parts.map(Number);
	return numbers.every((n) => n <= 255) ? numbers : undefined;
}

function classifyV4(parts: number[]): string | undefined {
	const value = v4Number(parts);
	for (const [a, b, c, d, bits, label] of V4_RANGES) {
		const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
		if ((value & mask) >>> 0 === (v4Number([a, b, c, d]) & mask) >>> 0) return label;
	}
	return undefined;
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

function embeddedV4(high: number, low: number): number[] {
	return [high >> 8, high & 0xff, low >> 8, low & 0xff];
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
	let v4: number[] | undefined;
	if (zerosUpTo(5) && (g[5] === 0xffff || g[5] === 0)) v4 = embeddedV4(g[6], g[7]);
	else if (zerosUpTo(4) && g[4] === 0xffff && g[5] === 0) v4 = embeddedV4(g[6], g[7]);
	else if (g[0] === 0x64 && g[1] === 0xff9b && (g[2] === 0 || g[2] === 1))
		v4 = embeddedV4(g[6], g[7]);
	else if (g[0] === 0x2002) v4 = embeddedV4(g[1], g[2]);
	const inner = v4 && classifyV4(v4);
	return inner ? `${inner} (${v4!.join('.')}) in IPv6 form` : undefined;
}

function classifyName(name: string): string | undefined {
	if (name === 'localhost' || name.endsWith('.localhost'))
		return 'a name of this machine (localhost)';
	if (name === 'metadata.google.internal' || name.endsWith('.internal')) {
		return 'a name of an internal network (*.internal, for example a cloud metadata service)';
	}
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
