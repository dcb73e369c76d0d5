import { heifItemsEnd } from './exif';
import { ascii, QUICKTIME_ATOMS } from './media';

/**
 * Whether a file is whole by its own structure (a photo still being written ends too early), from
 * one pass over its bytes with a few bytes of state. Matroska, WebM, MPEG and others cannot tell.
 */
export type Wholeness =
	| { whole: true; format: string }
	| { whole: false; format: string; reason: string }
	| { whole: undefined; format?: string };

/** Passes over the bytes of `chunk` from `at`: where it stopped, or -1 when it wants more. */
type Scan = (chunk: Uint8Array, at: number) => number;
/** A format's structure as the bytes come: it asks to `read` bytes or to pass some over, and returns the verdict at its end. */
type Reader = Generator<{ read: number } | Scan, Wholeness, Uint8Array>;

interface Walker {
	reader?: Reader;
	/** The verdict when the file ends before its reader returned, or for a format without one. */
	short(size: number, head: Uint8Array): Wholeness;
	/** Bytes of the file's start that tell all its format says before its data (a JPEG's segments up to the image data). */
	headBytes?(): number;
}

/** Bytes looked at before the format is known. */
const SIGNATURE_BYTES = 16;

const read = (bytes: number) => ({ read: bytes });
const u32 = (bytes: Uint8Array, at: number) =>
	new DataView(bytes.buffer, bytes.byteOffset).getUint32(at);
const isRestart = (code: number) => code >= 0xd0 && code <= 0xd7;

const cutShort = (format: string, reason: string): Wholeness => ({ whole: false, format, reason });

function skip(bytes: number): Scan {
	let left = bytes;
	return (chunk, at) => {
		const taken = Math.min(left, chunk.length - at);
		left -= taken;
		return left > 0 ? -1 : at + taken;
	};
}

/** A JPEG's image data, up to the code of the next marker: a stuffed zero, fill or a restart go on. */
function imageData(): Scan {
	let afterFF = false;
	return (chunk, at) => {
		for (; at < chunk.length; at++) {
			if (!afterFF) {
				at = chunk.indexOf(0xff, at);
				if (at === -1) return -1;
				afterFF = true;
				continue;
			}
			afterFF = chunk[at] === 0xff;
			if (!afterFF && chunk[at] !== 0x00 && !isRestart(chunk[at])) return at;
		}
		return -1;
	};
}

/** GIF sub-blocks: a size byte, that many bytes; size 0 ends the run. */
function subBlocks(): Scan {
	let left = 0;
	return (chunk, at) => {
		at += left;
		while (at < chunk.length) {
			const size = chunk[at++];
			if (size === 0) return at;
			at += size;
		}
		left = at - chunk.length;
		return -1;
	};
}

/**
 * A JPEG: its segments, then the image data after each SOS, up to the end marker (EOI); what follows
 * (a phone's "motion photo" video) is not looked at. No marker where one is due: cannot tell.
 */
function jpegWalker(at: () => number): Walker {
	let scanAt = Infinity;
	function* reader(): Reader {
		let scan = false;
		for (;;) {
			if (scan) yield imageData();
			else if ((yield read(1))[0] !== 0xff) return { whole: undefined, format: 'JPEG' };
			let [code] = yield read(1);
			while (code === 0xff) [code] = yield read(1);
			if (code === 0xd9) return { whole: true, format: 'JPEG' };
			scan = code === 0xda;
			// SOI, TEM and RST0-7 stand alone: no length follows
			if (code === 0xd8 || code === 0x01 || isRestart(code)) continue;
			const [high, low] = yield read(2);
			const length = (high << 8) | low;
			if (length < 2) return { whole: undefined, format: 'JPEG' };
			yield skip(length - 2);
			if (scan) scanAt = Math.min(scanAt, at());
		}
	}
	return {
		reader: reader(),
		headBytes: () => scanAt,
		short: () => cutShort('JPEG', 'it ends before the JPEG end marker'),
	};
}

/** A PNG: whole once its IEND chunk is (its 12 bytes); what may follow it is not looked at. */
function* pngReader(): Reader {
	yield skip(8);
	for (;;) {
		const chunk = yield read(8);
		if (ascii(chunk, 4, 8) === 'IEND') break;
		yield skip(u32(chunk, 0) + 4);
	}
	yield skip(4);
	return { whole: true, format: 'PNG' };
}

/**
 * ISO-BMFF (HEIC, AVIF, MP4, MOV, CR3): its boxes end where the file ends, a movie has moov and mdat,
 * an image's items (by `meta`) lie inside it. A box "to the end of the file" cannot tell.
 */
function isoWalker(): Walker {
	const format = 'ISO-BMFF';
	/** The offset of the first box of each type. */
	const boxes = new Map<string, number>();
	let [end, type] = [0, ''];
	function* reader(): Reader {
		for (;;) {
			const header = yield read(8);
			type = ascii(header, 4, 8);
			let size = u32(header, 0);
			// a 64-bit size: beyond 2^53 bytes is no file
			const large = size === 1 ? yield read(8) : undefined;
			if (large) size = u32(large, 0) >= 2 ** 21 ? 0 : u32(large, 0) * 2 ** 32 + u32(large, 4);
			if (size < (large ? 16 : 8)) return { whole: undefined, format };
			if (!boxes.has(type)) boxes.set(type, end);
			end += size;
			yield skip(size - (large ? 16 : 8));
		}
	}
	return {
		reader: reader(),
		short(size, head) {
			if (size !== end) return cutShort(format, `its "${type}" box runs past the end`);
			if (boxes.has('moov') && !boxes.has('mdat') && !boxes.has('moof'))
				return cutShort(format, 'it has a movie header but no media data yet');
			const meta = boxes.get('meta');
			if (!boxes.has('moov') && meta === undefined)
				return cutShort(format, 'it has no movie header (moov) or image index (meta) yet');
			if (meta !== undefined && (heifItemsEnd(head, meta) ?? 0) > size)
				return cutShort(format, 'its image data lies past the end');
			return { whole: true, format };
		},
	};
}

const TIFF_TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8];
const TIFF_STRIPS: Array<[number, number]> = [
	[273, 279], // StripOffsets, StripByteCounts
	[324, 325], // TileOffsets, TileByteCounts
	[513, 514], // JPEGInterchangeFormat (a RAW file's preview), its length
];
const TIFF_POINTERS = new Set([330, 34665]); // SubIFDs, the Exif IFD
/** IFDs followed at most (a RAW file has a handful; a chain longer is corrupt). */
const MAX_IFDS = 32;

/**
 * A TIFF or RAW file (DNG, CR2, NEF, ARW): its IFDs, values and image strips or tiles lie inside it.
 * IFDs are read from the head (where writers put them); one further in is taken on trust.
 */
function tiffVerdict(size: number, head: Uint8Array): Wholeness {
	const little = head[0] === 0x49;
	const view = new DataView(head.buffer, head.byteOffset, head.length);
	const u16 = (at: number) => view.getUint16(at, little);
	const u32 = (at: number) => view.getUint32(at, little);
	const cut = (reason: string) => cutShort('TIFF', reason);
	const queue = [u32(4)];
	const seen = new Set<number>();
	while (queue.length > 0 && seen.size < MAX_IFDS) {
		const ifd = queue.shift()!;
		if (ifd === 0 || seen.has(ifd)) continue;
		seen.add(ifd);
		if (ifd + 2 > size) return cut('an IFD it points to lies past the end');
		if (ifd + 2 > head.length) continue;
		const end = ifd + 2 + u16(ifd) * 12 + 4;
		if (end > size) return cut('an IFD runs past the end');
		if (end > head.length) continue;
		const values = new Map<number, number[]>();
		for (let entry = ifd + 2; entry < end - 4; entry += 12) {
			const [tag, type] = [u16(entry), u16(entry + 2)];
			const bytes = (TIFF_TYPE_BYTES[type] ?? 0) * u32(entry + 4);
			const at = bytes <= 4 ? entry + 8 : u32(entry + 8);
			if (bytes > 4 && at + bytes > size) return cut('a value it points to lies past the end');
			if (at + bytes > head.length || (type !== 3 && type !== 4 && type !== 13)) continue;
			const list: number[] = [];
			for (let item = at; item < at + bytes && list.length < 100_000; item += type === 3 ? 2 : 4)
				list.push(type === 3 ? u16(item) : u32(item));
			values.set(tag, list);
			if (TIFF_POINTERS.has(tag)) queue.push(...list);
		}
		for (const [offsetsTag, lengthsTag] of TIFF_STRIPS) {
			const [offsets, lengths] = [values.get(offsetsTag) ?? [], values.get(lengthsTag) ?? []];
			for (let i = 0; i < Math.min(offsets.length, lengths.length); i++)
				if (offsets[i] + lengths[i] > size) return cut('its image data lies past the end');
		}
		queue.push(u32(end - 4));
	}
	return { whole: true, format: 'TIFF' };
}

/** A format whose header says its length: RIFF (WebP, AVI) and BMP. */
function declaredLength(format: string, size: number, head: Uint8Array): Wholeness {
	const view = new DataView(head.buffer, head.byteOffset, head.length);
	const declared = format === 'BMP' ? view.getUint32(2, true) : view.getUint32(4, true) + 8;
	if (declared === 0) return { whole: undefined, format };
	if (declared > size) return cutShort(format, `its header says ${declared} bytes`);
	return { whole: true, format };
}

/** A GIF: header and color table, then extensions and images (runs of sub-blocks) up to the trailer. */
function* gifReader(): Reader {
	const colorTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
	const screen = yield read(13); // the header and logical screen descriptor
	yield skip(colorTable(screen[10]));
	for (;;) {
		const [kind] = yield read(1);
		if (kind === 0x3b) return { whole: true, format: 'GIF' };
		if (kind !== 0x21 && kind !== 0x2c) return { whole: undefined, format: 'GIF' };
		// an extension's label, or an image's descriptor, its color table and LZW code size
		yield skip(kind === 0x21 ? 1 : colorTable((yield read(9))[8]) + 1);
		yield subBlocks();
	}
}

function walkerFor(start: Uint8Array, at: () => number): Walker | undefined {
	const head = ascii(start, 0, 8);
	/** A format that needs only its first bytes and its size. */
	const byHead = (format: string, judge: Walker['short']): Walker => ({
		short: (size, head) =>
			head.length < SIGNATURE_BYTES ? { whole: undefined, format } : judge(size, head),
	});
	const reading = (reader: Reader, format: string, reason: string) => ({
		reader,
		short: () => cutShort(format, reason),
	});
	if (head.startsWith('\xff\xd8\xff')) return jpegWalker(at);
	if (head === '\x89PNG\r\n\x1a\n')
		return reading(pngReader(), 'PNG', 'it ends before its IEND chunk');
	if (ascii(start, 4, 8) === 'ftyp' || QUICKTIME_ATOMS.has(ascii(start, 4, 8))) return isoWalker();
	if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return byHead('TIFF', tiffVerdict);
	const riff = { WEBP: 'WebP', 'AVI ': 'AVI' }[ascii(start, 8, 12)];
	if (ascii(start, 0, 4) === 'RIFF' && riff)
		return byHead(riff, (size, head) => declaredLength(riff, size, head));
	if (ascii(start, 0, 2) === 'BM')
		return byHead('BMP', (size, head) => declaredLength('BMP', size, head));
	if (ascii(start, 0, 4) === 'GIF8')
		return reading(gifReader(), 'GIF', 'it ends before the GIF trailer');
	return undefined;
}

/**
 * Fed the file's bytes in order (`push`); `verdict` takes its first MiB (the EXIF reader's head) or
 * the first `headBytes`, which tell all when fewer do (a JPEG's metadata ends at its image data).
 */
export function wholenessCheck(): {
	push: (chunk: Uint8Array) => void;
	verdict: (head: Uint8Array) => Wholeness;
	headBytes: () => number;
} {
	// until the format is known, `start` holds every byte pushed (fewer than SIGNATURE_BYTES)
	let start = new Uint8Array(0);
	let walker: Walker | undefined;
	let step: ReturnType<Reader['next']> | undefined;
	let [size, fed, at] = [0, 0, 0];
	let held: Uint8Array = new Uint8Array(0);
	/** Hands the reader what it asks for, as far as `chunk` goes. */
	const feed = (chunk: Uint8Array) => {
		const base = fed;
		fed += chunk.length;
		for (let i = 0; step?.done === false;) {
			const ask = step.value;
			let answer = held;
			if (typeof ask === 'function') {
				i = ask(chunk, i);
				if (i < 0) return;
			} else {
				const taken = chunk.subarray(i, i + ask.read - held.length);
				held = held.length === 0 ? taken : Uint8Array.of(...held, ...taken);
				i += taken.length;
				if (held.length < ask.read) return;
				[answer, held] = [held, new Uint8Array(0)];
			}
			at = base + i;
			step = walker!.reader!.next(answer);
		}
	};
	const decide = (earlier: Uint8Array) => {
		walker = walkerFor(start, () => at);
		step = walker?.reader?.next();
		feed(earlier);
	};
	return {
		push(chunk) {
			size += chunk.length;
			if (start.length < SIGNATURE_BYTES) {
				// only the signature's bytes are copied, never the chunk (a file may come as one buffer)
				const earlier = start;
				start = Uint8Array.of(...start, ...chunk.subarray(0, SIGNATURE_BYTES - start.length));
				if (start.length < SIGNATURE_BYTES) return;
				decide(earlier);
			}
			feed(chunk);
		},
		headBytes: () => walker?.headBytes?.() ?? Infinity,
		verdict(head) {
			if (start.length < SIGNATURE_BYTES) decide(start);
			if (step?.done) return step.value;
			return walker ? walker.short(size, head) : { whole: undefined };
		},
	};
}
