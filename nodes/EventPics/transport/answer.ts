/** An answer body as n8n hands it out with `encoding: 'stream'` (a Node.js readable stream). */
export interface AnswerStream extends AsyncIterable<Buffer | string> {
	destroy: (error?: Error) => void;
	destroyed?: boolean;
}

export type AnswerRead =
	| { ok: true; bytes: Buffer }
	| { ok: false; reason: 'tooLarge' | 'deadline' | 'broken'; error?: unknown };

/** 1024 as KiB, 1048576 as MiB: for messages. */
export function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${Math.round(bytes / 1024 / 1024)} MiB`
		: `${Math.round(bytes / 1024)} KiB`;
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

/** The body as JSON when it is JSON, else as text ('' for none). */
export function parseBody(bytes: Buffer): unknown {
	const text = bytes.toString('utf8');
	if (text.trim() === '') return '';
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
