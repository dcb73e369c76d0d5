/** What the node reads from an answer of the service or the storage (pure parts of transport/request.ts). */
import { parseBody, retryAfterMs, statusError } from '../../../nodes/EventPics/transport/request';

describe('retryAfterMs: Retry-After in delta seconds or as an HTTP date', () => {
	const now = Date.UTC(2026, 10, 22, 12, 0, 0);
	it.each([
		['3', 3000],
		['0', 0],
		['1.5', 1500],
		[' 2 ', 2000],
		['Sun, 22 Nov 2026 12:00:05 GMT', 5000],
		// a date already past asks for no wait
		['Sun, 22 Nov 2026 11:59:00 GMT', 0],
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
		['1'.repeat(65), undefined],
	])('%j: %j ms', (value, ms) => {
		expect(retryAfterMs(value, now)).toBe(ms);
	});
});

describe('parseBody', () => {
	it('reads JSON as JSON, anything else as text, blank as empty', () => {
		expect(parseBody(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
		expect(parseBody(Buffer.from('<html>nope</html>'))).toBe('<html>nope</html>');
		expect(parseBody(Buffer.from('  \n'))).toBe('');
	});

	it('keeps an error answer over 64 KiB as the text of its start, unparsed', () => {
		const big = Buffer.from(`{"message":"${'m'.repeat(70_000)}"}`);
		expect(parseBody(big, 401)).toBe(big.toString('utf8', 0, 64 * 1024));
		expect(parseBody(big, 200)).toEqual({ message: 'm'.repeat(70_000) });
	});
});

describe('statusError: the failure a non-2xx answer stands for, with what the service said', () => {
	it.each([
		[401, 'unauthorized'],
		[400, 'badRequest'],
		[429, 'rateLimited'],
		[500, 'serverError'],
		[503, 'serverError'],
		[403, 'status'],
		[404, 'status'],
	])('%i is %s', (statusCode, kind) => {
		expect(statusError('getuploadurl', statusCode, {}, '').kind).toBe(kind);
	});

	it("reads the service's Error object, the storage's XML error and Retry-After; other text says nothing", () => {
		const details = { retry: true };
		const json = statusError(
			'geteventsandalbums',
			429,
			{ 'retry-after': '7' },
			{ code: 'RATE', message: 'slow down', details },
		);
		expect(json.facts).toEqual({
			step: 'geteventsandalbums',
			statusCode: 429,
			said: { code: 'RATE', message: 'slow down', details },
			retryAfterMs: 7000,
		});
		const xml = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
		expect(statusError('put', 403, {}, xml).facts.said).toEqual({
			code: 'AccessDenied',
			message: 'Request has expired',
		});
		expect(statusError('put', 502, {}, '<html>Bad gateway</html>').facts.said).toEqual({
			code: undefined,
			message: undefined,
		});
		expect(statusError('put', 400, {}, { code: 7, message: ['x'] }).facts.said).toEqual({
			code: undefined,
			message: undefined,
			details: undefined,
		});
	});
});
