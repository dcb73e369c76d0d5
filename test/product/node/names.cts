/**
 * Host names of the test world: a DNS answer for names that no real DNS knows, given to n8n's
 * egress filter (its DnsResolver, in n8n's DI container). Names not listed resolve as usual. It
 * must be set before n8n first builds its SSRF service (at the first request of a test file).
 * No traffic goes to these addresses: the requests themselves go through the test's HTTP proxy.
 */
import dns from 'node:dns';
import net from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require('@n8n/di');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DnsResolver } = require('@n8n/backend-network');

/** Every name the egress filter asked the test world's DNS for, in order. */
export const lookups: string[] = [];

/**
 * The filter's answers: a name's address, or a list of them given in turn, the last one from then
 * on (a name that answers one address to the check and another after: DNS rebinding).
 */
export function resolveNames(names: Record<string, string | string[]>): void {
	const real = Container.get(DnsResolver);
	const asked = new Map<string, number>();
	Container.set(DnsResolver, {
		lookup: async (hostname: string, options: object) => {
			const name = hostname.toLowerCase();
			lookups.push(name);
			const answers = names[name];
			if (answers === undefined) return await real.lookup(hostname, options);
			const turn = asked.get(name) ?? 0;
			asked.set(name, turn + 1);
			const list = Array.isArray(answers) ? answers : [answers];
			const address = list[Math.min(turn, list.length - 1)];
			return [{ address, family: address.includes(':') ? 6 : 4 }];
		},
	});
}

/**
 * The answers a connection gets when it resolves a name itself (Node's dns.lookup, used by every
 * request that connects by name): where a request would really go if the node let the name through
 * unchecked. Returns the undo.
 */
export function connectNames(names: Record<string, string>): () => void {
	const original = dns.lookup;
	const patched = (hostname: string, options: unknown, callback?: unknown) => {
		const done = (typeof options === 'function' ? options : callback) as (
			error: Error | null,
			address: unknown,
			family?: number,
		) => void;
		const address = names[hostname.toLowerCase()];
		if (address === undefined)
			return (original as (...args: unknown[]) => void)(hostname, options, callback);
		const family = address.includes(':') ? 6 : 4;
		const all = typeof options === 'object' && (options as { all?: boolean } | null)?.all;
		return all ? done(null, [{ address, family }]) : done(null, address, family);
	};
	Object.assign(dns, { lookup: patched });
	return () => Object.assign(dns, { lookup: original });
}

/**
 * The test world's network for connections by address: a connection to one of `routes`' addresses
 * goes to that port on 127.0.0.1 instead, and is recorded ("address:port" as asked). Returns the
 * connections made and the undo.
 */
export function routeAddresses(routes: Record<string, number>) {
	const connects: string[] = [];
	const original = net.Socket.prototype.connect;
	net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
		const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as {
			host?: string;
			port?: number;
		};
		if (typeof options === 'object' && options?.host && routes[options.host] !== undefined) {
			connects.push(`${options.host}:${options.port}`);
			Object.assign(options, { host: '127.0.0.1', port: routes[options.host] });
		}
		return (original as (...rest: unknown[]) => net.Socket).apply(this, args);
	} as typeof original;
	return { connects, undo: () => void (net.Socket.prototype.connect = original) };
}
