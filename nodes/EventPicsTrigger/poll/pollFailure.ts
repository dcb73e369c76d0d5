import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AdviceByKind } from '../../EventPics/transport/errors';
import { failureToError } from '../../EventPics/transport/errors';
import type { RetryResult } from '../../EventPics/transport/retry';

/** Said with every failed poll: what the trigger remembers survives it. */
const NOTHING_LOST =
	'The trigger keeps what it has seen: once polls succeed again it reports only what is new, nothing twice.';

/** What to do, where the trigger has words of its own: it asks again at its next poll. */
const TRIGGER_ADVICE: AdviceByKind = {
	unauthorized:
		'EventPics refused the API key of the credential. Copy the key again from the EventPics app (open the event, then the API key management) into the EventPics credential.',
	rateLimited:
		'EventPics is limiting the request rate of this key. The trigger asks again at its next poll; if this repeats, poll less often.',
	serverError:
		'EventPics answered with a server error. The trigger asks again at its next poll; if it persists, contact EventPics support.',
	deadline:
		'EventPics answered too slowly. The trigger asks again at its next poll; if this repeats, check the Base URL of the credential.',
};

/** The error of a poll whose listing of the events failed: what failed, how often, what to do. */
export function pollFailure(
	node: INode,
	result: RetryResult<unknown>,
	apiKey: string,
): NodeApiError | NodeOperationError {
	const failure = result.failure!;
	// the headline in the node's words; what EventPics said follows it
	const headline =
		failure.statusCode === 401
			? { ...failure, summary: 'EventPics refused the API key of the credential (401)' }
			: failure;
	return failureToError(node, headline, {
		attempts: result.attempts,
		elapsedMs: result.elapsedMs,
		secret: apiKey,
		advice: TRIGGER_ADVICE,
		afterAdvice: NOTHING_LOST,
	});
}
