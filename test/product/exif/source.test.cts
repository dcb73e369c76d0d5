/** bufferSource and streamSource, the limits of readCaptureTime, and how little of a stream it takes. */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	bufferSource,
	type ByteSource,
	DEFAULT_MAX_BYTES,
	readCaptureTime,
	streamSource,
} from '../../../nodes/EventPics/helpers/exif';
import { buildJpeg, buildTiff, concat, JFIF, segment, T } from './build.cts';
import { chunked, corpusFile } from './corpus.cts';

const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
const text = (data: Uint8Array) => Array.from(data).join(',');

describe('bufferSource', () => {
	test('reads ranges, short at the end, empty past it or for nonsense', async () => {
		const source = bufferSource(bytes);
		expect(text(await source.read(10, 3))).toBe('10,11,12');
		expect(text(await source.read(98, 10))).toBe('98,99');
		expect((await source.read(100, 10)).length).toBe(0);
		expect((await source.read(-5, 3)).length).toBe(3);
		expect((await source.read(Number.NaN, 3)).length).toBe(3);
		expect((await source.read(5, -1)).length).toBe(0);
	});
});

describe('streamSource', () => {
	test('pulls only as far as asked, then answers earlier ranges from memory', async () => {
		const stream = chunked(bytes, 10);
		const source = streamSource(stream, 1000);
		expect(text(await source.read(12, 3))).toBe('12,13,14');
		expect(source.bytesPulled).toBe(20);
		expect(text(await source.read(0, 2))).toBe('0,1');
		expect(text(await source.read(18, 4))).toBe('18,19,20,21');
		expect(source.bytesPulled).toBe(30);
		expect(text(await source.read(95, 10))).toBe('95,96,97,98,99');
		expect((await source.read(100, 1)).length).toBe(0);
		expect(source.bytesPulled).toBe(100);
	});

	test('keeps nothing at or past maxBytes: reads there are short or empty, and it stops pulling', async () => {
		const stream = chunked(bytes, 10);
		const source = streamSource(stream, 25);
		expect(text(await source.read(20, 10))).toBe('20,21,22,23,24');
		expect((await source.read(25, 1)).length).toBe(0);
		expect((await source.read(60, 1)).length).toBe(0);
		expect(source.bytesPulled).toBe(30);
		expect(text(await source.read(0, 3))).toBe('0,1,2');
	});

	test('concurrent reads each get their own bytes', async () => {
		const source = streamSource(chunked(bytes, 7), 1000);
		const results = await Promise.all([source.read(50, 2), source.read(3, 2), source.read(90, 20)]);
		expect(results.map(text)).toEqual(['50,51', '3,4', '90,91,92,93,94,95,96,97,98,99']);
	});

	test('close() ends the stream', async () => {
		let finished = false;
		async function* stream() {
			try {
				for (let i = 0; i < 1000; i++) yield new Uint8Array(10);
			} finally {
				finished = true;
			}
		}
		const source = streamSource(stream(), 1000);
		await source.read(0, 15);
		expect(finished).toBe(false);
		await source.close();
		expect(finished).toBe(true);
		expect((await source.read(0, 15)).length).toBe(0);
	});

	test('the default keeps DEFAULT_MAX_BYTES (1 MiB)', async () => {
		expect(DEFAULT_MAX_BYTES).toBe(1024 * 1024);
		const source = streamSource(chunked(new Uint8Array(3 * 1024 * 1024), 64 * 1024));
		expect((await source.read(DEFAULT_MAX_BYTES - 4, 10)).length).toBe(4);
		expect(source.bytesPulled).toBe(DEFAULT_MAX_BYTES);
	});
});

describe('a 5 MB JPEG with EXIF at the start', () => {
	const real = corpusFile('jpeg-phone-all-tags.jpg');
	// the corpus file with 5 MB more entropy-coded data before its EOI
	const big = concat(
		real.subarray(0, real.length - 2),
		new Uint8Array(5 * 1024 * 1024).fill(0x55),
		real.subarray(-2),
	);
	const expected = {
		dateTime: '2023-06-30T23:59:58.042',
		offset: '+02:00',
		tag: 'DateTimeOriginal',
	};

	test('from a stream in 64 KiB chunks: fewer than 128 KiB pulled', async () => {
		const stream = chunked(big, 64 * 1024);
		const source = streamSource(stream);
		expect(await readCaptureTime(source)).toEqual(expected);
		expect(stream.pulled).toBeLessThan(128 * 1024);
		expect(source.bytesPulled).toBe(stream.pulled);
		await source.close();
	});

	test('from a Node file stream: one 64 KiB chunk read, and close() releases the file', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'exif-'));
		try {
			const path = join(dir, 'big.jpg');
			writeFileSync(path, big);
			const stream = createReadStream(path);
			const source = streamSource(stream);
			expect(await readCaptureTime(source)).toEqual(expected);
			expect(source.bytesPulled).toBe(64 * 1024);
			await source.close();
			expect(stream.destroyed).toBe(true);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	test('every read stays within the first few hundred bytes', async () => {
		const reads: Array<[number, number]> = [];
		const source: ByteSource = {
			read: async (offset, length) => {
				reads.push([offset, length]);
				return big.subarray(offset, offset + length);
			},
		};
		expect(await readCaptureTime(source)).toEqual(expected);
		expect(Math.max(...reads.map(([offset, length]) => offset + length))).toBeLessThan(real.length);
		expect(reads.length).toBeLessThan(30);
	});
});

describe('readCaptureTime limits and sources', () => {
	const tiff = buildTiff('II', [], [{ tag: T.DateTimeOriginal, value: '2020:01:02 03:04:05' }]);
	// 200 KiB of other APPn segments before the Exif APP1
	const padding = Array.from({ length: 4 }, () => segment(0xe2, new Uint8Array(50 * 1024)));
	const jpeg = buildJpeg(tiff, [JFIF, ...padding]);

	test('maxBytes bounds how far it looks', async () => {
		expect(await readCaptureTime(bufferSource(jpeg))).toBeDefined();
		expect(await readCaptureTime(bufferSource(jpeg), { maxBytes: 150 * 1024 })).toBeUndefined();
		expect(await readCaptureTime(bufferSource(jpeg), { maxBytes: jpeg.length })).toBeDefined();
		expect(await readCaptureTime(streamSource(chunked(jpeg, 4096), 150 * 1024))).toBeUndefined();
	});

	test('a source that fails gives undefined, not an exception', async () => {
		const failing: ByteSource = {
			read: async () => await Promise.reject(new Error('disk on fire')),
		};
		expect(await readCaptureTime(failing)).toBeUndefined();
		async function* broken() {
			yield jpeg.subarray(0, 10);
			throw new Error('stream broke');
		}
		const source = streamSource(broken());
		expect(await readCaptureTime(source)).toBeUndefined();
		await source.close();
		const throwing: ByteSource = {
			read: () => {
				throw new Error('synchronous failure');
			},
		};
		expect(await readCaptureTime(throwing)).toBeUndefined();
	});

	test('a source that answers with something else than bytes gives undefined', async () => {
		const odd = { read: async () => 'not bytes' } as unknown as ByteSource;
		expect(await readCaptureTime(odd)).toBeUndefined();
	});
});
