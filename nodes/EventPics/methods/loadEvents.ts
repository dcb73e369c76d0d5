import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { EventSummary } from '../helpers/events';
import { listEvents } from '../transport/api';
import { readCredential } from '../transport/credential';
import { failureToError } from '../transport/errors';
import { DEFAULT_RETRY_POLICY } from '../transport/retry';

/** A dropdown should answer fast: fewer and shorter retries than an execution. */
const DROPDOWN_RETRY_POLICY = {
	...DEFAULT_RETRY_POLICY,
	maxAttempts: 3,
	maxTotalWaitMs: 10_000,
	timeoutMs: 20_000,
};

/** n8n shows it as "401 - <message>", with the advice below it and a link to the credential. */
const KEY_REFUSED = 'EventPics refused the API key of the credential';
const KEY_ADVICE =
	'Open the EventPics credential, copy the key again from the EventPics app (open the event, then the API key management), paste it without spaces, and save it: n8n tests the key on Save.';

/** The key's events for a dropdown, with errors the editor can show. */
export async function loadEvents(ctx: ILoadOptionsFunctions): Promise<EventSummary[]> {
	const { baseUrl, apiKey } = await readCredential(ctx);
	const result = await listEvents(ctx, baseUrl, DROPDOWN_RETRY_POLICY);
	if (result.value) return result.value;
	if (result.failure?.statusCode === 401) {
		// with its HTTP code, so that n8n offers to open the credential
		throw new NodeApiError(
			ctx.getNode(),
			{ statusCode: 401 },
			{ message: KEY_REFUSED, description: KEY_ADVICE, httpCode: '401' },
		);
	}
	throw failureToError(ctx.getNode(), result.failure!, { ...result, secret: apiKey });
}
