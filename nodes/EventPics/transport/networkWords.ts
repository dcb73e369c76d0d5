/** What a network error code (of Node.js, axios or TLS) says happened. */
export type NetworkKind =
	| 'refused'
	| 'notFound'
	| 'closed'
	| 'timedOut'
	| 'unreachable'
	| 'certificate'
	| 'invalidUrl'
	| 'other';

export function networkKind(code: string): NetworkKind {
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'notFound';
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE')
		return 'closed';
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ERR_SOCKET_CONNECTION_TIMEOUT')
		return 'timedOut';
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
	if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/.test(code)) return 'certificate';
	if (code === 'ERR_INVALID_URL') return 'invalidUrl';
	return 'other';
}

const NETWORK_WORDS: Record<NetworkKind, string> = {
	refused: 'the server refused the connection (nothing listens there)',
	notFound: 'the host name was not found',
	closed: 'the server closed the connection before it answered',
	timedOut: 'the connection timed out',
	unreachable: 'the server cannot be reached',
	certificate: 'the HTTPS certificate of the server is not trusted',
	invalidUrl: 'the address is not valid',
	other: 'no connection could be made',
};

/**
 * What a network error code means, in words. The code itself stays out of an error's message: n8n
 * swaps a message naming ECONNRESET, ECONNREFUSED, ETIMEDOUT and the like for a generic sentence
 * that no longer says which request failed (the description, which names the code, is kept).
 */
export function networkWords(code: string): string {
	return NETWORK_WORDS[networkKind(code)];
}
