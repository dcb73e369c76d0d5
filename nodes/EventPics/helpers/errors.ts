import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redact, redactDetails } from './redact';
import { capText, shownDuration, shownSize } from './text';

/** The requests the node makes: who answers, the request in a message, the request in a description. */
const STEPS = {
	geteventsandalbums: ['EventPics', 'the request for the events list', 'GET /geteventsandalbums'],
	getuploadurl: ['EventPics', 'the request for an upload address', 'POST /getuploadurl'],
	put: ['The storage', 'the upload', 'PUT to the upload address'],
	download: ['The server of the File URL', 'the download', 'GET of the File URL'],
} as const;
export type Step = keyof typeof STEPS;
const who = (f: Facts) => STEPS[f.step][0];
const what = (f: Facts) => STEPS[f.step][1];

/** What the finder knew: the request, its answer, and a few words of its own. */
export interface Facts {
	step: Step;
	statusCode?: number;
	networkCode?: string;
	/** What the service (its Error object, or the storage's XML error) said: shown cut and redacted. */
	said?: { code?: string; message?: string; details?: unknown };
	retryAfterMs?: number;
	detail?: string; // the kind's own fragment: where a redirect goes, how far a transfer came
	reason?: string; // a second fragment (what an internal address is)
	url?: string; // the File URL (or a hop of it) without user name and password
	timeoutMs?: number;
	tries?: {
		attempts: number;
		elapsedMs: number;
		waitRefused?: { askedMs: number; leftMs: number };
	};
	broken?: string[]; // tries of an upload that broke off while the file moved, a sentence each
}

/**
 * Network error codes in words. The code itself stays out of a message: n8n swaps a message
 * naming ECONNRESET and the like for a generic sentence that no longer says which request failed.
 */
const NETWORK: Array<[RegExp, string]> = [
	[/^ECONNREFUSED$/, 'the server refused the connection (nothing listens there)'],
	[/^(ENOTFOUND|EAI_AGAIN)$/, 'the host name was not found'],
	[
		/^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE|UND_ERR_SOCKET)$/,
		'the server closed the connection before it answered',
	],
	[/^(ETIMEDOUT|ECONNABORTED|ERR_SOCKET_CONNECTION_TIMEOUT)$/, 'the connection timed out'],
	[/^(EHOSTUNREACH|ENETUNREACH)$/, 'the server cannot be reached'],
	[
		/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/,
		'the HTTPS certificate of the server is not trusted',
	],
	[/^ERR_INVALID_URL$/, 'the address is not valid'],
];

/** A failed connection's code: one NETWORK words or a system error code; not ABORT_ERR and the like. */
export const isNetworkCode = (code: string) =>
	NETWORK.some(([pattern]) => pattern.test(code)) || /^E(?!RR_)[A-Z0-9_]+$/.test(code);

/** The option names a caller's advice fills in (the operation's words). */
export type Names = Partial<Record<'timeout' | 'wait' | 'rate' | 'internal' | 'maxSize', string>>;

const NOT_THE_API =
	'Check the Base URL in the EventPics credential: the server there does not answer like the EventPics API.';
const moved = (f: Facts) => (f.step === 'put' ? 'The upload' : 'The download');

/** Each kind of failure: its message, and what to do (`n`: the caller's option names). */
const WORDS = {
	unauthorized: {
		summary: () => 'EventPics refused the API key of the credential (401)',
		advice: () =>
			'Open the EventPics credential, copy the key again from the EventPics app (open the event, then the API key management), paste it without spaces, and save it.',
	},
	badRequest: {
		summary: (f) => `${who(f)} refused ${what(f)} (400)`,
		advice: () => 'Check the event, album, file name and Taken At of this item.',
	},
	rateLimited: {
		summary: (f) =>
			`${who(f)} limited the request rate${f.step === 'put' ? '' : ' of this key'} (429)`,
		advice: (_, n) => `Run the workflow again later${n.rate ? `, or ${n.rate}` : ''}.`,
	},
	serverError: {
		summary: (f) => `${who(f)} answered ${what(f)} with a server error (${f.statusCode})`,
		advice: () => 'Run the workflow again later; if it persists, contact EventPics support.',
	},
	status: {
		summary: (f) =>
			`${who(f)} answered ${what(f)} with ${f.statusCode}${f.url ? `: ${f.url}` : ''}`,
		advice: (f) =>
			f.step === 'download'
				? 'Check that the File URL is right and that the file is reachable without logging in.'
				: 'Check the Base URL in the EventPics credential; if it is right, contact EventPics support.',
	},
	redirect: {
		summary: (f) =>
			`${who(f)} answered ${what(f)} with a redirect${f.detail ? ` to ${f.detail}` : ''} (${f.statusCode}); the node does not follow redirects of calls that carry the API key, so the key was not sent there`,
		advice: () =>
			'Check the Base URL in the EventPics credential: it must be the address of the EventPics API itself (https://api.eventpics.net), not an address that forwards elsewhere.',
	},
	malformed: {
		summary: (f) => `${who(f)} answered ${what(f)} without ${f.detail}`,
		advice: () => NOT_THE_API,
	},
	tooLarge: {
		summary: (f) =>
			`${who(f)} answered ${what(f)} with more than ${f.detail}, more than such an answer can be, so the node stopped reading it`,
		advice: () => NOT_THE_API,
	},
	deadline: {
		summary: (f) =>
			`${who(f)} did not answer ${what(f)} within ${shownDuration(f.timeoutMs ?? 0)}, so the node stopped waiting`,
		advice: (_, n) =>
			`Run the workflow again later, or check the Base URL${n.timeout ? `, or raise ${n.timeout}` : ''}.`,
	},
	noAnswer: {
		summary: (f) =>
			`${who(f)} did not answer ${what(f)}: ${NETWORK.find(([pattern]) => pattern.test(f.networkCode ?? ''))?.[1] ?? 'no connection could be made'}${f.url ? `: ${f.url}` : ''}`,
		advice: (f) =>
			f.step === 'download'
				? 'Check that the File URL is right and that its server is reachable from the machine n8n runs on.'
				: 'Check the network and the Base URL in the credential, then run the workflow again.',
	},
	failed: {
		summary: (f) =>
			`${what(f).replace(/^t/, 'T')}${f.url ? ` of ${f.url}` : ''} failed: ${f.detail}`,
		advice: () =>
			'This is the error n8n or Node.js reported, as it was: no network failure the node knows. Run the workflow again; if it repeats, report this message and your n8n version at https://github.com/eventpics/n8n-nodes-eventpics/issues.',
	},
	ssrf: {
		summary: (f) =>
			`n8n's SSRF protection blocked ${what(f)}${f.url ? ` of ${f.url}` : ''}: ${f.detail}`,
		advice: () =>
			'If this address is meant to be reached (a local set-up), allow it in N8N_SSRF_ALLOWED_IP_RANGES or N8N_SSRF_ALLOWED_HOSTNAMES.',
	},
	refusedAddress: {
		summary: (f) =>
			`EventPics answered with an upload address the node does not send files to: ${f.detail}. Nothing was sent there`,
		advice: (_, n) =>
			`An upload address must use https:// and point outside this machine and its network, unless the Base URL is itself a local address${n.internal ? ` or ${n.internal} is on` : ''}. Check the Base URL in the EventPics credential.`,
	},
	putRefused: {
		summary: (f) => `The storage refused the upload address (${f.statusCode})`,
		advice: () =>
			"The storage refused the pre-signed upload address even after fresh ones were asked for. The Content-Type sent must be the one the address was signed for; check the file name's extension.",
	},
	stalled: {
		summary: (f) => `${moved(f)} stalled: ${f.detail}`,
		advice: (f, n) =>
			`${f.step === 'download' ? 'The server of the File URL stopped sending data' : 'The connection to the storage stopped moving data'}. Run the workflow again${n.timeout ? `; on a network that pauses longer, raise ${n.timeout}` : ''}.`,
	},
	tooSlow: {
		summary: (f) => `${moved(f)} was too slow: ${f.detail}`,
		advice: (f) =>
			f.step === 'put'
				? 'n8n held this file in memory (binary data mode "database"), where the node cannot see its bytes leave; see Running at scale in the package\'s docs.'
				: 'The server of the File URL sends too slowly. Run the workflow again; if it persists, check that server.',
	},
	internal: {
		summary: (f) =>
			`The File URL${f.detail ? ` (${f.detail})` : ''} points into an internal network at ${f.url}: ${f.reason}`,
		advice: (_, n) =>
			`The node refuses internal addresses, so that a workflow or an AI agent cannot fetch files from this machine or its network. Use a public address${n.internal ? `, or turn on ${n.internal} (only for local set-ups you trust)` : ''}.`,
	},
	notHttp: {
		summary: (f) =>
			`The File URL${f.detail ? ` (${f.detail})` : ''} is not an http(s) address: ${f.url}`,
		advice: () => 'Set "File URL" to the http(s) address of the file.',
	},
	fileTooLarge: {
		summary: (f) =>
			`The file of the File URL is larger than Max File Size (${f.detail}): ${f.url} ${f.reason}`,
		advice: (_, n) => `Raise ${n.maxSize ?? 'Max File Size'} if this file is meant to be uploaded.`,
	},
	brokeOff: {
		summary: (f) => `The download of the File URL broke off ${f.detail}: ${f.url}`,
		advice: () =>
			'The server of the File URL stopped sending the file. Run the workflow again; if it persists, check that server.',
	},
	redirects: {
		summary: (f) => `The File URL ${f.detail}: ${f.url}`,
		advice: () => 'Use the final address of the file.',
	},
} satisfies Record<string, Record<'summary' | 'advice', (f: Facts, n: Names) => string>>;
export type Kind = keyof typeof WORDS;

/** A failure, thrown where it is found; its message is its kind's summary. */
export class EventPicsError extends Error {
	constructor(
		readonly kind: Kind,
		public facts: Facts,
	) {
		super(WORDS[kind].summary(facts));
		this.name = 'EventPicsError';
	}
}

const MAX_TEXT = 2000;

/** A caller's own words for some kinds (the trigger's), its option names, words after any advice. */
export interface Voice {
	names?: Names;
	summary?: Partial<Record<Kind, string>>;
	advice?: Partial<Record<Kind, string>>;
	after?: string;
}

/** Outside text redacted whole, then cut: no part of a key survives a cut. */
const clean = (text: string | undefined, max: number, secret: string | undefined) =>
	text ? capText(redact(text, secret), max) : undefined;

/** The message and description of a failure in a caller's voice, the service's words cut and redacted. */
export function wordsOf(error: EventPicsError, secret: string | undefined, voice: Voice = {}) {
	const { kind, facts: f } = error;
	const code = clean(f.said?.code, 100, secret);
	// what the service said, but for a refused key (its words are in the details): one voice for it
	const said =
		f.said?.message && kind !== 'unauthorized'
			? `: ${code ? `${code}: ` : ''}${clean(f.said.message, 1000, secret)}`
			: '';
	const message = clean(`${voice.summary?.[kind] ?? error.message}${said}`, MAX_TEXT, secret) ?? '';
	const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
	const parts = [voice.advice?.[kind] ?? WORDS[kind].advice(f, voice.names ?? {}), voice.after];
	// an answer's request is in the error's details; a network error has none
	if (f.statusCode === undefined && f.networkCode)
		parts.push(`(${STEPS[f.step][2]}: network error code ${f.networkCode}.)`);
	const refused = f.tries?.waitRefused;
	if (refused)
		parts.push(
			`EventPics asked to wait ${seconds(refused.askedMs)} before the next try (Retry-After), more than the ${seconds(refused.leftMs)} left of ${voice.names?.wait ?? 'the time the node may wait between tries'}, so the node stopped at once instead of waiting.`,
		);
	if (f.tries && f.tries.attempts > 1)
		parts.push(`Tried ${f.tries.attempts} times over about ${seconds(f.tries.elapsedMs)}.`);
	parts.push(...(f.broken ?? []));
	return { message, description: capText(parts.filter(Boolean).join(' '), MAX_TEXT) };
}

/** Any error as n8n's NodeApiError (an HTTP answer) or NodeOperationError; a refused key names no item. */
export function toNodeError(
	node: INode,
	error: unknown,
	context: { itemIndex?: number; secret?: string; voice?: Voice } = {},
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (!(error instanceof EventPicsError))
		return new NodeOperationError(node, error as Error, { itemIndex: context.itemIndex });
	const { message, description } = wordsOf(error, context.secret, context.voice);
	const itemIndex = error.kind === 'unauthorized' ? undefined : context.itemIndex;
	const { statusCode, step, said } = error.facts;
	if (statusCode === undefined)
		return new NodeOperationError(node, message, { description, itemIndex });
	const response: JsonObject = {
		request: STEPS[step][2],
		statusCode,
		code: clean(said?.code, 100, context.secret) ?? null,
		message: clean(said?.message, 1000, context.secret) ?? null,
		details: redactDetails(said?.details, 4000, context.secret) as JsonObject,
	};
	const httpCode = String(statusCode);
	return new NodeApiError(node, response, { message, description, httpCode, itemIndex });
}

/** "3.0 MiB of 4.0 MiB": how far a transfer came. */
export const progress = (bytes: number, size: number) =>
	`${shownSize(bytes)} of ${shownSize(size)}`;
