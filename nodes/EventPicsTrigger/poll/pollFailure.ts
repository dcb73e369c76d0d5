import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { failureToError } from '../../EventPics/transport/errors';
import type { RetryResult } from '../../EventPics/transport/retryLoop';
import type { Failure } from '../../EventPics/transport/types';

/** Said with every failed poll: what the trigger remembers survives it. */
const NOTHING_LOST =
	'The trigger keeps what it has seen: once polls succeed again it reports only what is new, nothing twice.';

/** What to do, where the trigger has words of its own: it asks again at its next poll. */
function adviceFor(failure: Failure): string | undefined {
	const status = failure.statusCode;
	if (status === 401) {
		return 'EventPics refused the API key of the credential. Copy the key again from the EventPics app (open the event, then the API key management) into the EventPics credential.';
	}
	if (status === 429) {
		return 'EventPics is limiting the request rate of this key. The trigger asks again at its next poll; if this repeats, poll less often.';
	}
	if (status !== undefined && status >= 500) {
		return 'EventPics had a server problem. The trigger asks again at its next poll; if it persists, contact EventPics support.';
	}
	if (failure.networkCode === 'DEADLINE_EXCEEDED') {
		return 'EventPics answered too slowly. The trigger asks again at its next poll; if this repeats, check the Base URL of the credential.';
	}
	return undefined;
}

/** The error of a poll whose listing of the events failed: what failed, how often, what to do. */
export function pollFailure(
	node: INode,
	result: RetryResult<unknown>,
	apiKey: string,
): NodeApiError | NodeOperationError {
	const failure = result.failure!;
	return failureToError(node, failure, {
		attempts: result.attempts,
		elapsedMs: result.elapsedMs,
		secret: apiKey,
		advice: (_, general) => `${adviceFor(failure) ?? general} ${NOTHING_LOST}`,
	});
}
