import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'eventPicsApi';

/** The contexts that may talk to EventPics: operations, dropdown (list search) methods and the trigger's poll. */
export type EventPicsContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** The three requests of the service, named as the API names them, and the download of a URL source. */
export type Step = 'geteventsandalbums' | 'getuploadurl' | 'put' | 'download';

export interface HttpAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** What went wrong with one request, in terms safe to show a user (never the API key). */
export interface Failure {
	step: Step;
	statusCode?: number;
	/** Node.js network error code such as ECONNRESET, when no HTTP answer came. */
	networkCode?: string;
	/** `code` and `message` of the service's Error object (400/401), or the storage's XML error. */
	serviceCode?: string;
	serviceMessage?: string;
	details?: unknown;
	/** A redirect's target origin (never its path or query), null when it named none. */
	redirectTo?: string | null;
	/** The answer was larger than the node reads from that call. */
	tooLarge?: boolean;
	/** Wait asked for by a Retry-After header, in milliseconds. */
	retryAfterMs?: number;
	/** One sentence describing the failure. */
	summary: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };
