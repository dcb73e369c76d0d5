import { internalHostReason } from '../helpers/address';
import { shown } from '../helpers/text';
import { stepLabel } from './errors';
import { egressRefusal } from './egress';
import type { Failure } from './errors';
import type { EventPicsContext } from './request';

/**
 * Why the node will not send a file to the upload address `getuploadurl` answered, or undefined
 * when it may. The URL source's rules, measured against the Base URL: plain http:// only when the
 * Base URL is itself plain http:// (which the credential allows for loopback only); an internal
 * address (loopback, private, link-local and cloud metadata, *.internal, ...) only when the Base
 * URL is internal too or `allowInternal` is on. A refused address gets no request at all.
 */
export function refusedUploadAddress(
	uploadUrl: string,
	baseUrl: string,
	allowInternal: boolean,
): Failure | undefined {
	let target: URL;
	try {
		target = new URL(uploadUrl);
	} catch {
		return refusal('it is not an address');
	}
	if (target.protocol !== 'https:' && target.protocol !== 'http:')
		return refusal(`"${shown(target.protocol)}" is not http(s)`);
	const base = new URL(baseUrl);
	const origin = `"${shown(target.origin)}"`;
	if (target.protocol === 'http:' && base.protocol !== 'http:')
		return refusal(`${origin} uses plain http://, so the file would travel unencrypted`);
	const internal = internalHostReason(target.hostname);
	if (internal && !allowInternal && !internalHostReason(base.hostname))
		return refusal(
			`${origin} points into an internal network: "${shown(target.host)}" is ${internal}`,
		);
	return undefined;
}

/**
 * The same rule for a host name: n8n's egress filter (transport/egress.ts) resolves it, where this
 * n8n has one; skipped where an internal address may be used (see refusedUploadAddress).
 */
export async function refusedByEgress(
	ctx: EventPicsContext,
	uploadUrl: string,
	baseUrl: string,
	allowInternal: boolean,
): Promise<Failure | undefined> {
	if (allowInternal || internalHostReason(new URL(baseUrl).hostname)) return undefined;
	const target = new URL(uploadUrl);
	const internal = await egressRefusal(ctx, target);
	if (!internal) return undefined;
	return refusal(
		`"${shown(target.origin)}" points into an internal network: "${shown(target.host)}" is ${internal}`,
	);
}

function refusal(why: string): Failure {
	return {
		step: 'getuploadurl',
		refusedAddress: true,
		summary: `${stepLabel('getuploadurl')} answered with an upload address the node does not send files to: ${why}. Nothing was sent there.`,
	};
}
