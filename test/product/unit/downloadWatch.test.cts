import { Readable } from 'node:stream';

import { watchDownload, watchTransfer } from '../../../nodes/EventPics/transport/watch';

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
		const transfer = watchTransfer({ stallMs: 60_000 });
		const watch = watchDownload(stream, 10_000, transfer);
		stream.push(Buffer.alloc(700));
		stream.push(null);
		expect(await drain(stream)).toEqual({ bytes: 1000 });
		watch.end();
		transfer.end();
		expect(watch.received).toBe(1000);
		expect(watch.tooLarge).toBe(false);
		// the transfer's watch heard of the bytes that came after it began
		expect(transfer.bytes).toBe(700);
	});

	it('stops the stream as soon as it passes the limit', async () => {
		const stream = source();
		const transfer = watchTransfer({ stallMs: 60_000 });
		const watch = watchDownload(stream, 1500, transfer);
		const reading = drain(stream);
		for (let i = 0; i < 10; i++) stream.push(Buffer.alloc(500));
		const result = await reading;
		watch.end();
		transfer.end();
		expect(result.error?.message).toBe('The file is larger than 1.5 KiB');
		expect(result.bytes).toBeLessThanOrEqual(1500);
		expect(watch.tooLarge).toBe(true);
	});

	it('stops a stream that sends nothing for the stall time', async () => {
		const stream = source();
		const transfer = watchTransfer({ stallMs: 200 });
		const watch = watchDownload(stream, 10_000, transfer);
		stream.push(Buffer.alloc(10));
		const result = await drain(stream);
		watch.end();
		expect(result).toEqual({ bytes: 10, error: new Error('The download was stopped: stalled') });
		expect(transfer.stopped).toBe('stalled');
		expect(watch.tooLarge).toBe(false);
	});

	it('stops a stream that drips below the minimum rate, though it never stalls', async () => {
		const stream = source();
		const transfer = watchTransfer({ stallMs: 200, minBytesPerSecond: 10_000 });
		const watch = watchDownload(stream, 10_000, transfer);
		const timer = setInterval(() => stream.push(Buffer.alloc(1)), 50);
		const result = await drain(stream);
		clearInterval(timer);
		watch.end();
		expect(result.error).toEqual(new Error('The download was stopped: tooSlow'));
		expect(transfer.stopped).toBe('tooSlow');
	});
});
