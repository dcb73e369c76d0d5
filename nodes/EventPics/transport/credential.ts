import { NodeOperationError } from 'n8n-workflow';

import { checkBaseUrl } from '../helpers/baseUrl';
import type { EventPicsContext } from './request';
import { CREDENTIAL_TYPE } from './request';

/** The EventPics credential as the node uses it: a Base URL safe to send the key to, and the key. */
export interface CheckedCredential {
	baseUrl: string;
	apiKey: string;
}

/**
 * Reads the EventPics credential and refuses it before anything is sent: a Base URL that would
 * expose the key (see helpers/baseUrl.ts), or no API key. The errors say which field to correct.
 */
export async function readCredential(ctx: EventPicsContext): Promise<CheckedCredential> {
	const credentials = (await ctx.getCredentials(CREDENTIAL_TYPE)) as {
		apiKey?: unknown;
		baseUrl?: unknown;
	};
	const base = checkBaseUrl(credentials.baseUrl);
	if (!base.ok) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Base URL of the EventPics credential is refused: ${base.reason}`,
			{ description: 'Open the EventPics credential and correct its Base URL.' },
		);
	}
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
	if (apiKey === '') {
		throw new NodeOperationError(ctx.getNode(), 'The EventPics credential has no API key', {
			description: 'Open the EventPics credential and paste the API key from the EventPics app.',
		});
	}
	return { baseUrl: base.url, apiKey };
}
