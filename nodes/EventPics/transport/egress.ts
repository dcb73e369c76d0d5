import type { NodeEgressFilter } from 'n8n-workflow';

import type { EventPicsContext } from './request';

type EgressHelpers = { getSecureEgressFilter?: (policy: 'enforced') => NodeEgressFilter };

/** The verdicts of one node run, by origin: a run of 1,000 files to one storage asks once. */
const verdictsOfRun = new WeakMap<object, Map<string, Promise<string | undefined>>>();

/**
 * Why n8n's egress filter refuses `url`, or undefined when it lets it pass or this n8n has none.
 * The filter (n8n 2.41 and later) resolves the host name, so it also refuses a public-looking name
 * that resolves to an internal address, which the literal checks (helpers/address.ts) cannot see.
 * It is asked 'enforced': it applies the instance's rules (N8N_SSRF_BLOCKED_IP_RANGES,
 * N8N_SSRF_ALLOWED_IP_RANGES, N8N_SSRF_ALLOWED_HOSTNAMES) also where SSRF protection is off. A name
 * the filter cannot resolve is left to the request, which then says why it got no answer (behind an
 * HTTP proxy, n8n itself may not resolve outside names). Older n8n: undefined, the literal checks hold.
 * Asked once per origin in a node run (the context `ctx` is the run's).
 */
export async function egressRefusal(ctx: EventPicsContext, url: URL): Promise<string | undefined> {
	const helpers = ctx.helpers as EgressHelpers;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	let verdicts = verdictsOfRun.get(ctx);
	if (!verdicts) verdictsOfRun.set(ctx, (verdicts = new Map()));
	let verdict = verdicts.get(url.origin);
	if (!verdict) {
		verdict = askFilter(helpers.getSecureEgressFilter('enforced'), url);
		verdicts.set(url.origin, verdict);
	}
	return await verdict;
}

async function askFilter(filter: NodeEgressFilter, url: URL): Promise<string | undefined> {
	let verdict: Awaited<ReturnType<NodeEgressFilter['validateUrl']>>;
	try {
		verdict = await filter.validateUrl(url);
	} catch {
		return undefined;
	}
	if (verdict.ok) return undefined;
	const { name, ip } = verdict.error as Error & { ip?: unknown };
	if (name === 'SsrfBlockedIpError') {
		const address = typeof ip === 'string' ? ip : 'an address';
		return `a name that resolves to ${address}, an address n8n's egress filter restricts`;
	}
	if (name === 'SsrfBlockedHostnameError') return "a host name n8n's egress filter blocks";
	return undefined;
}
