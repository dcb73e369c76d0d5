// The night tier's booth photos (photos.js): whole only when complete, each one different.
const { makePhoto, jpegIsWhole, sampleJpegs } = require('./photos');

describe('booth photos', () => {
	test('a photo has the size asked for, is a whole JPEG, and keeps its sample head (EXIF date)', () => {
		for (const [size, sample] of [
			[3_000_000, 0],
			[6_291_456, 1],
			[40 * 1024, 2],
		]) {
			const photo: Buffer = makePhoto({ size, sample });
			expect(photo.length).toBe(size);
			expect(jpegIsWhole(photo)).toBe(true);
			const jpeg: Buffer = sampleJpegs()[sample];
			// SOI, APP0 and, for the first two samples, the APP1 with DateTimeOriginal
			const head = jpeg.subarray(
				0,
				jpeg[20] === 0xff && jpeg[21] === 0xe1 ? 20 + 2 + jpeg.readUInt16BE(22) : 20,
			);
			expect(photo.subarray(0, head.length).equals(head)).toBe(true);
			expect(photo.subarray(-jpeg.length + 400).equals(jpeg.subarray(400))).toBe(true);
		}
	});

	test('no strict prefix of a photo is whole, though it holds the preview JPEG with its own FF D9', () => {
		const photo: Buffer = makePhoto({ size: 3_000_000 });
		const previewEnd = photo.indexOf(Buffer.from([0xff, 0xd9])) + 2;
		expect(previewEnd).toBeGreaterThan(2);
		expect(previewEnd).toBeLessThan(photo.length / 10);
		const cuts = [1, 2, 3, 4, 100, previewEnd, previewEnd + 1, photo.length - 2, photo.length - 1];
		for (let i = 0; i < 300; i++) cuts.push(Math.floor((photo.length * i) / 300));
		expect(cuts.filter((cut) => cut < photo.length && jpegIsWhole(photo.subarray(0, cut)))).toEqual(
			[],
		);
	});

	test('two photos of the same size and sample differ (content-based skipping tells them apart)', () => {
		const a: Buffer = makePhoto({ size: 100_000 });
		const b: Buffer = makePhoto({ size: 100_000 });
		expect(a.equals(b)).toBe(false);
	});

	test('too small a size is refused', () => {
		expect(() => makePhoto({ size: 10_000 })).toThrow(/needs more than 10000 bytes/);
	});
});
