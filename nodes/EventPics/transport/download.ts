import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { httpFailure, networkFailure } from './failures';
import type { BinaryStream } from './upload';
import type { Result } from './types';

export interface Download {
	stream: BinaryStream;
	statusCode: number;
	/** Content-Length, when the server gave it. */
	size?: number;
	contentType?: string;
	/** File name from Content-Disposition, when the server gave one. */
	fileName?: string;
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first, then filename). */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
	if (extended) {
		try {
			return decodeURIComponent(extended[2].trim());
		} catch {
			// a malformed percent-encoding: fall back to the plain filename parameter
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
	return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

/** GET an http(s) address as a stream (redirects followed: a GET has no body to replay). */
export async function openDownload(ctx: IExecuteFunctions, url: string): Promise<Result<Download>> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url,
			// an uncompressed answer, so that Content-Length is the size of the file
			headers: { 'Accept-Encoding': 'identity' },
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		return { ok: false, failure: { ...networkFailure('download', error) } };
	}
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const stream = response.body as BinaryStream;
	if (response.statusCode < 200 || response.statusCode > 299) {
		stream.destroy();
		return { ok: false, failure: httpFailure('download', { statusCode: response.statusCode, headers, body: '' }) };
	}
	const length = Number(header(headers, 'content-length'));
	const encoded = header(headers, 'content-encoding');
	return {
		ok: true,
		value: {
			stream,
			statusCode: response.statusCode,
			// a compressed answer's Content-Length is not the size of the file it unpacks to
			size: Number.isSafeInteger(length) && length >= 0 && (!encoded || encoded === 'identity') ? length : undefined,
			contentType: header(headers, 'content-type')?.split(';')[0].trim() || undefined,
			fileName: fileNameFromDisposition(header(headers, 'content-disposition')),
		},
	};
}
