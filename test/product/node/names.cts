/**
 * Host names of the test world: a DNS answer for names that no real DNS knows, given to n8n's
 * egress filter (its DnsResolver, in n8n's DI container). Names not listed resolve as usual. It
 * must be set before n8n first builds its SSRF service (at the first request of a test file).
 * No traffic goes to these addresses: the requests themselves go through the test's HTTP proxy.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require('@n8n/di');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DnsResolver } = require('@n8n/backend-network');

/** Every name the egress filter asked the test world's DNS for, in order. */
export const lookups: string[] = [];

export function resolveNames(names: Record<string, string>): void {
	const real = Container.get(DnsResolver);
	Container.set(DnsResolver, {
		lookup: async (hostname: string, options: object) => {
			lookups.push(hostname.toLowerCase());
			const address = names[hostname.toLowerCase()];
			if (address === undefined) return await real.lookup(hostname, options);
			return [{ address, family: address.includes(':') ? 6 : 4 }];
		},
	});
}
