import { jsonParse } from 'n8n-workflow';

/** An answer body as n8n hands it out with `encoding: 'stream'` (a Node.js readable stream). */
export interface AnswerStream extends AsyncIterable<Buffer | string> {
	destroy: (error?: Error) => void;
	destroyed?: boolean;
}

type AnswerRead =
	| { ok: true; bytes: Buffer }
	| { ok: false; reason: 'tooLarge' | 'deadline' | 'broken'; error?: unknown };

/** The statuses of a redirect: a Location that a download follows, hop by hop, and a call with the key never does. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A header value as text: the first of a repeated header; undefined when absent or not text. */
export function headerValue(value: unknown): string | undefined {
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' ? first : undefined;
}

/** The header `name` (lower case, as Node.js gives them) of an answer, as text. */
export function headerText(headers: Record<string, unknown> | undefined, name: string) {
	return headerValue(headers?.[name]);
}

/**
 * Reads an answer body, but never more than `maxBytes` (the rest is not read: the stream is
 * destroyed) and never past the deadline `signal` (the stream is destroyed when it fires, so a
 * server that sends one byte now and then cannot hold the node). `onBytes` hears of every chunk.
 */
export async function readAnswer(
	stream: AnswerStream,
	maxBytes: number,
	signal: AbortSignal,
	onBytes?: (count: number) => void,
): Promise<AnswerRead> {
	if (signal.aborted) {
		stream.destroy();
		return { ok: false, reason: 'deadline' };
	}
	const onAbort = () => stream.destroy();
	signal.addEventListener('abort', onAbort, { once: true });
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			onBytes?.(bytes.length);
			if (size > maxBytes) {
				stream.destroy();
				return { ok: false, reason: 'tooLarge' };
			}
			chunks.push(bytes);
		}
		if (signal.aborted) return { ok: false, reason: 'deadline' };
		return { ok: true, bytes: Buffer.concat(chunks) };
	} catch (error) {
		return signal.aborted
			? { ok: false, reason: 'deadline' }
			: { ok: false, reason: 'broken', error };
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * Largest error answer (a status other than 2xx) read as JSON. The service's Error object is a few
 * hundred bytes; parsing megabytes of it is where a hostile answer costs seconds (250,000 keys took
 * V8 about a second), so of a larger one only the start is kept, as text: an error shows nothing of
 * it unless it is an S3-style XML error.
 */
const MAX_ERROR_JSON_BYTES = 64 * 1024;

/** The body as JSON when it is JSON, else as text ('' for none); a large error answer stays text. */
export function parseBody(bytes: Buffer, statusCode = 200): unknown {
	const success = statusCode >= 200 && statusCode <= 299;
	// only its start is ever looked at (an S3-style XML error)
	if (!success && bytes.length > MAX_ERROR_JSON_BYTES)
		return bytes.toString('utf8', 0, MAX_ERROR_JSON_BYTES);
	const text = bytes.toString('utf8');
	if (text.trim() === '') return '';
	return jsonParse<unknown>(text, { fallbackValue: text });
}
