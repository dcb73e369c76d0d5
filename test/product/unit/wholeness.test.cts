import type { Wholeness } from '../../../nodes/EventPics/helpers/wholeness';
import { wholenessCheck } from '../../../nodes/EventPics/helpers/wholeness';
import { FIXTURE_IMAGES as FILES } from '../exif/corpus.cts';

/** The verdict on `bytes` pushed in pieces of `chunk` bytes, with its first MiB as the head. */
function verdictOf(bytes: Uint8Array, chunk = 4096): Wholeness {
	const check = wholenessCheck();
	for (let at = 0; at < bytes.length; at += chunk) check.push(bytes.subarray(at, at + chunk));
	return check.verdict(bytes.subarray(0, 1024 * 1024));
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const file = (name: string) => FILES.find((entry) => entry.name === name)!.bytes;

/** An ISO-BMFF box: 32-bit size, type, payload. */
function box(type: string, payload: number | Uint8Array): Uint8Array {
	const body = typeof payload === 'number' ? new Uint8Array(payload).fill(7) : payload;
	const head = Buffer.alloc(8);
	head.writeUInt32BE(8 + body.length);
	head.write(type, 4, 'latin1');
	return concat(head, body);
}

const ftyp = box('ftyp', new Uint8Array(Buffer.from('isom\0\0\0\0isommp41', 'latin1')));
const mp4 = (...boxes: Uint8Array[]) => concat(ftyp, ...boxes);

/** Cut points: the first 64, every 1/97 of the file, and the last 64 (where the structure ends). */
function cutPoints(length: number): number[] {
	const points = new Set<number>();
	for (let at = 1; at < Math.min(length, 64); at++) points.add(at);
	for (let at = 0; at < length; at += Math.max(1, Math.floor(length / 97))) points.add(at);
	for (let at = Math.max(1, length - 64); at < length; at++) points.add(at);
	return [...points].filter((at) => at > 0 && at < length);
}

describe("wholeness: what a file's own structure says", () => {
	const whole = FILES.filter(({ name }) => !name.startsWith('truncated-') && name !== 'empty.jpg');

	it.each(whole.map(({ name }) => [name]))('%s is whole, in pieces of any size', (name) => {
		const bytes = file(name);
		for (const chunk of [1, 7, 4096, bytes.length])
			expect(verdictOf(bytes, chunk)).toEqual({ whole: true, format: expect.any(String) });
	});

	it.each(whole.map(({ name }) => [name]))('%s cut short is never whole', (name) => {
		const bytes = file(name);
		const wrong = cutPoints(bytes.length).filter(
			(at) => verdictOf(bytes.subarray(0, at), 13).whole === true,
		);
		expect(wrong).toEqual([]);
		// past the first bytes, where the format is known, it says cut short (not "cannot tell")
		expect(verdictOf(bytes.subarray(0, bytes.length - 1)).whole).toBe(false);
	});

	it('says why, by format', () => {
		const reasons = ['booth-0001.jpg', 'confetti.png', 'first-dance.heic', 'gif.gif', 'webp.webp']
			.map((name) => file(name))
			.map((bytes) => verdictOf(bytes.subarray(0, bytes.length - 5)));
		expect(reasons).toEqual([
			{ whole: false, format: 'JPEG', reason: 'it ends before the JPEG end marker' },
			{ whole: false, format: 'PNG', reason: 'it ends before its IEND chunk' },
			{ whole: false, format: 'ISO-BMFF', reason: 'its "mdat" box runs past the end' },
			{ whole: false, format: 'GIF', reason: 'it ends before the GIF trailer' },
			{ whole: false, format: 'WebP', reason: `its header says 474 bytes` },
		]);
	});

	it('the two truncated corpus files are cut short; an empty file cannot tell', () => {
		expect(verdictOf(file('truncated-in-exif.jpg')).whole).toBe(false);
		expect(verdictOf(file('truncated-in-image-data.jpg')).whole).toBe(false);
		expect(verdictOf(file('empty.jpg'))).toEqual({ whole: undefined });
	});

	it("a JPEG followed by more data (a motion photo's video) is whole once its end marker came", () => {
		const motion = concat(file('booth-0001.jpg'), mp4(box('mdat', 5000), box('moov', 300)));
		expect(verdictOf(motion, 1000)).toEqual({ whole: true, format: 'JPEG' });
	});

	it('a progressive JPEG (several scans) is whole only at its end marker', () => {
		const bytes = file('progressive.jpg');
		let scans = 0;
		for (let at = 0; at + 1 < bytes.length; at++)
			if (bytes[at] === 0xff && bytes[at + 1] === 0xda) scans++;
		expect(scans).toBeGreaterThan(1);
		expect(verdictOf(bytes, 3).whole).toBe(true);
		expect(verdictOf(bytes.subarray(0, bytes.length - 2), 3).whole).toBe(false);
	});

	it('bytes that are no JPEG marker where one is due: cannot tell', () => {
		const odd = concat(file('booth-0001.jpg').subarray(0, 20), new Uint8Array(40).fill(0x41));
		expect(verdictOf(odd)).toEqual({ whole: undefined, format: 'JPEG' });
	});

	it('an MP4 needs its movie header and media data, whichever comes first, and boxes that end at its end', () => {
		const moovLast = mp4(box('mdat', 20_000), box('moov', 500));
		const moovFirst = mp4(box('moov', 500), box('mdat', 20_000));
		expect(verdictOf(moovLast).whole).toBe(true);
		expect(verdictOf(moovFirst).whole).toBe(true);
		// cut exactly where the movie header would start: every box present ends, but there is none
		expect(verdictOf(moovLast.subarray(0, ftyp.length + 20_008))).toEqual({
			whole: false,
			format: 'ISO-BMFF',
			reason: 'it has no movie header (moov) or image index (meta) yet',
		});
		expect(verdictOf(moovFirst.subarray(0, ftyp.length + 508))).toEqual({
			whole: false,
			format: 'ISO-BMFF',
			reason: 'it has a movie header but no media data yet',
		});
		expect(verdictOf(moovFirst.subarray(0, moovFirst.length - 1)).whole).toBe(false);
	});

	it('a box with a 64-bit size is walked; a box "to the end of the file" cannot tell', () => {
		const large = Buffer.alloc(16 + 3000, 7);
		large.writeUInt32BE(1, 0);
		large.write('mdat', 4, 'latin1');
		large.writeUInt32BE(0, 8);
		large.writeUInt32BE(16 + 3000, 12);
		const bytes = mp4(box('moov', 100), new Uint8Array(large));
		expect(verdictOf(bytes, 5).whole).toBe(true);
		expect(verdictOf(bytes.subarray(0, bytes.length - 1), 5).whole).toBe(false);
		const toEnd = Buffer.from(box('mdat', 100));
		toEnd.writeUInt32BE(0, 0);
		expect(verdictOf(mp4(box('moov', 100), new Uint8Array(toEnd))).whole).toBeUndefined();
	});

	it('a HEIC cut where its media data starts: its index points past the end', () => {
		const bytes = file('first-dance.heic');
		const mdatAt = Buffer.from(bytes).indexOf('mdat') - 4;
		expect(verdictOf(bytes.subarray(0, mdatAt))).toEqual({
			whole: false,
			format: 'ISO-BMFF',
			reason: 'its image data lies past the end',
		});
	});

	it('a TIFF whose IFD is at its end, cut anywhere, is cut short', () => {
		const bytes = file('tiff-ifd-at-end.tif');
		expect(new DataView(bytes.buffer).getUint32(4, true)).toBeGreaterThan(bytes.length / 2);
		expect(verdictOf(bytes.subarray(0, bytes.length - 200))).toEqual({
			whole: false,
			format: 'TIFF',
			reason: 'an IFD runs past the end',
		});
		const ifdIn = file('tiff-ii.tif');
		expect(verdictOf(ifdIn.subarray(0, ifdIn.length - 1)).whole).toBe(false);
	});

	it('formats whose structure says nothing of their end cannot tell', () => {
		const matroska = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...new Array(60).fill(1)]);
		const pdf = new Uint8Array(Buffer.from('%PDF-1.7\n'.padEnd(64, 'x')));
		expect(verdictOf(matroska)).toEqual({ whole: undefined });
		expect(verdictOf(pdf)).toEqual({ whole: undefined });
	});
});
