import type { NodeEgressFilter } from 'n8n-workflow';

import { internalHostReason } from '../helpers/address';
import type { Step } from '../helpers/errors';
import { EventPicsError } from '../helpers/errors';
import { shown } from '../helpers/text';
import type { Context } from './request';

/** Where a request to a File URL hop or an upload address goes: the address to connect to, pinned. */
export interface Target {
	url: string;
	headers: Record<string, string>;
	agentOptions?: { servername: string };
}

/** The addresses a name resolves to, each checked by the filter; or, as text, why it is refused. */
async function resolve(filter: NodeEgressFilter, hostname: string) {
	return await new Promise<string[] | string>((done) =>
		filter.createSecureLookup()(hostname, { all: true }, (error, addresses) => {
			const { name, ip, code } = (error ?? {}) as Error & { ip?: unknown; code?: unknown };
			if (!error && Array.isArray(addresses) && addresses.length > 0)
				done(addresses.map((entry) => entry.address));
			else if (name === 'SsrfBlockedIpError')
				done(
					`a name that resolves to ${typeof ip === 'string' ? ip : 'an address'}, an address n8n's egress filter restricts`,
				);
			else if (name === 'SsrfBlockedHostnameError') done("a host name n8n's egress filter blocks");
			else
				done(
					`a name this machine cannot resolve${typeof code === 'string' ? ` (${code})` : ''}, so its address cannot be checked`,
				);
		}),
	);
}

/** The filter's answers, by name, for each run of a node (its context). */
const resolved = new WeakMap<object, Map<string, ReturnType<typeof resolve>>>();

/**
 * Where to connect for `url` (a File URL hop, an upload address), or the refusal of an internal one.
 * The name is resolved once, by n8n's egress filter, and the request goes to the checked address
 * (the name as Host and for TLS), so DNS rebinding cannot lead inside; an unresolvable name is
 * refused. `allowInternal` connects to the name as it is; without the filter, literal checks only.
 */
export async function checkedTarget(
	ctx: Context,
	url: URL,
	step: Step,
	allowInternal: boolean,
	shownUrl: string,
	redirects?: string,
): Promise<Target> {
	const same = { url: url.href, headers: {} };
	const refuse = (why: string) => {
		const reason = `"${shown(url.host)}" is ${why}`;
		return step === 'put'
			? new EventPicsError('refusedAddress', {
					step,
					detail: `"${shown(url.origin)}" points into an internal network: ${reason}`,
				})
			: new EventPicsError('internal', { step, url: shownUrl, detail: redirects, reason });
	};
	if (allowInternal) return same;
	const literal = internalHostReason(url.hostname);
	if (literal) throw refuse(literal);
	// n8n 2.41 and later; 'enforced': its rules apply even where SSRF protection is off
	if (typeof ctx.helpers.getSecureEgressFilter !== 'function') return same;
	// one answer per name for the node's run: every request of the run connects to that address
	let answers = resolved.get(ctx);
	if (!answers) resolved.set(ctx, (answers = new Map()));
	const hostname = url.hostname.replace(/^\[|\]$/g, '');
	let answer = answers.get(hostname);
	if (!answer)
		answers.set(
			hostname,
			(answer = resolve(ctx.helpers.getSecureEgressFilter('enforced'), hostname)),
		);
	const found = await answer;
	if (typeof found === 'string') throw refuse(found);
	const [address] = found;
	const bracketed = address.includes(':') ? `[${address}]` : address;
	const inside = internalHostReason(bracketed);
	if (inside) throw refuse(`a name that resolves to ${address}, ${inside}`);
	if (found.length === 1 && address === hostname) return same;
	const pinned = new URL(url.href);
	pinned.hostname = bracketed;
	return {
		url: pinned.href,
		headers: { Host: url.host },
		agentOptions: url.protocol === 'https:' ? { servername: url.hostname } : undefined,
	};
}
