import type { IExecuteFunctions } from 'n8n-workflow';

import type { EventPicsContext } from './request';

type EgressHelpers = Partial<Pick<IExecuteFunctions['helpers'], 'getSecureEgressFilter'>>;

/**
 * Why n8n's egress filter refuses `url`, or undefined when it lets it pass or this n8n has none.
 * The filter (n8n 2.41 and later) resolves the host name, so it also refuses a public-looking name
 * that resolves to an internal address, which the literal checks (helpers/address.ts) cannot see.
 * It is asked 'enforced': it applies the instance's rules (N8N_SSRF_BLOCKED_IP_RANGES,
 * N8N_SSRF_ALLOWED_IP_RANGES, N8N_SSRF_ALLOWED_HOSTNAMES) also where SSRF protection is off. A name
 * the filter cannot resolve is left to the request, which then says why it got no answer (behind an
 * HTTP proxy, n8n itself may not resolve outside names). Older n8n: undefined, the literal checks hold.
 */
export async function egressRefusal(ctx: EventPicsContext, url: URL): Promise<string | undefined> {
	const helpers = ctx.helpers as EgressHelpers;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	let verdict: Awaited<ReturnType<ReturnType<typeof helpers.getSecureEgressFilter>['validateUrl']>>;
	try {
		verdict = await helpers.getSecureEgressFilter('enforced').validateUrl(url);
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
