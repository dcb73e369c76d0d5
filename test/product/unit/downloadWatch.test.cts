import { Readable } from 'node:stream';

import { watchDownload } from '../../../nodes/EventPics/transport/downloadWatch';

/** A real Readable whose source pushes what the test gives it. */
function source() {
	const stream = new Readable({ read() {} });
	return stream;
}

async function drain(stream: Readable): Promise<{ bytes: number; error?: Error }> {
	let bytes = 0;
	try {
		for await (const chunk of stream) bytes += (chunk as Buffer).length;
		return { bytes };
	} catch (error) {
		return { bytes, error: error as Error };
	}
}

describe('watchDownload: bytes counted and limits kept whoever reads the stream', () => {
	it('counts what was buffered before the watch and what comes after', async () => {
		const stream = source();
		stream.push(Buffer.alloc(300));
		const watch = watchDownload(stream, 10_000, 60_000);
		stream.push(Buffer.alloc(700));
		stream.push(null);
		expect(await drain(stream)).toEqual({ bytes: 1000 });
		watch.end();
		expect(watch.received).toBe(1000);
		expect(watch.stopped).toBeUndefined();
	});

	it('stops the stream as soon as it passes the limit', async () => {
		const stream = source();
		const watch = watchDownload(stream, 1500, 60_000);
		const reading = drain(stream);
		for (let i = 0; i < 10; i++) stream.push(Buffer.alloc(500));
		const result = await reading;
		watch.end();
		expect(result.error?.message).toBe('The file is larger than 1500 bytes');
		expect(result.bytes).toBeLessThanOrEqual(1500);
		expect(watch.stopped).toBe('tooLarge');
	});

	it('stops a stream that sends nothing for the idle time', async () => {
		const stream = source();
		const watch = watchDownload(stream, 10_000, 200);
		stream.push(Buffer.alloc(10));
		const result = await drain(stream);
		watch.end();
		expect(result).toEqual({ bytes: 10, error: new Error('No data for 200 ms') });
		expect(watch.stopped).toBe('stalled');
	});
});
