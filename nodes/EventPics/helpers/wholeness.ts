import { heifItemsEnd } from './exif';
import { ascii } from './media';

/**
 * Whether a file is whole, by its own structure: a photo read while the camera or booth software
 * still writes it ends too early, and its format says so. The check sees every byte once, as the file
 * is read before its upload, and keeps only a few bytes of state: a JPEG must reach its end marker,
 * a PNG its IEND chunk, the boxes of an ISO-BMFF file (HEIC, AVIF, MP4, MOV) must end where the file
 * ends and what they point at must lie inside it, a TIFF or RAW file's IFDs and image strips must
 * lie inside it, a RIFF (WebP, AVI) or BMP file must be as long as its header says, a GIF must end
 * with its trailer. Other formats (Matroska, WebM, MPEG) cannot tell.
 */
export type Wholeness =
	| { whole: true; format: string }
	| { whole: false; format: string; reason: string }
	| { whole: undefined; format?: string };

interface Walker {
	feed(chunk: Uint8Array): void;
	verdict(size: number, head: Uint8Array): Wholeness;
	/** Bytes of the file's start that tell all its format says before its data (a JPEG's segments up to the image data). */
	headBytes?(): number;
}

/** Bytes looked at before the format is known. */
const SIGNATURE_BYTES = 16;

/** JPEG markers that stand alone (no length follows): SOI, TEM, RST0-7. */
const standalone = (code: number) =>
	code === 0xd8 || code === 0x01 || (code >= 0xd0 && code <= 0xd7);

/**
 * A JPEG: its segments one after the other, then the image data after each SOS, up to the end
 * marker (EOI). Whatever follows EOI (a phone's "motion photo" video, a maker's trailer) is not looked
 * at. Bytes that are no marker where one is due make it a file the check cannot tell about.
 */
function jpegWalker(): Walker {
	let state: 'ff' | 'code' | 'len1' | 'len2' | 'skip' | 'scan' | 'scanFF' | 'end' | 'odd' = 'ff';
	let code = 0;
	let skip = 0;
	let afterSkip: 'ff' | 'scan' = 'ff';
	let fed = 0;
	let scanAt = Infinity;
	return {
		feed(chunk) {
			let i = 0;
			fed += chunk.length;
			while (i < chunk.length && state !== 'end' && state !== 'odd') {
				if (state === 'skip') {
					const taken = Math.min(skip, chunk.length - i);
					[i, skip] = [i + taken, skip - taken];
					if (skip === 0) state = afterSkip;
				} else if (state === 'scan') {
					scanAt = Math.min(scanAt, fed - chunk.length + i);
					const at = chunk.indexOf(0xff, i);
					[i, state] = at === -1 ? [chunk.length, state] : [at + 1, 'scanFF'];
				} else if (state === 'scanFF') {
					// inside image data: a stuffed zero, a restart marker or fill go on; anything else is a marker
					const byte = chunk[i];
					if (byte === 0xff) i++;
					else if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) [i, state] = [i + 1, 'scan'];
					else state = 'code';
				} else if (state === 'ff') {
					state = chunk[i++] === 0xff ? 'code' : 'odd';
				} else if (state === 'code') {
					code = chunk[i++];
					if (code === 0xd9) state = 'end';
					else if (standalone(code)) state = 'ff';
					else if (code !== 0xff) state = 'len1';
				} else if (state === 'len1') {
					[skip, state] = [chunk[i++] << 8, 'len2'];
				} else {
					skip = (skip | chunk[i++]) - 2;
					afterSkip = code === 0xda ? 'scan' : 'ff';
					state = skip < 0 ? 'odd' : skip === 0 ? afterSkip : 'skip';
				}
			}
		},
		headBytes: () => scanAt,
		verdict() {
			if (state === 'end') return { whole: true, format: 'JPEG' };
			if (state === 'odd') return { whole: undefined, format: 'JPEG' };
			return { whole: false, format: 'JPEG', reason: 'it ends before the JPEG end marker' };
		},
	};
}

/**
 * Files made of length-prefixed parts, one after the other: PNG chunks and ISO-BMFF boxes. `header`
 * bytes are gathered at each part's start; `next` says how many bytes the part takes in all (its
 * header included), 'more' for a longer header (a 64-bit box size), or 'end' when the part ends the
 * file.
 */
function partWalker(
	start: number,
	header: number,
	next: (bytes: DataView, type: string) => number | 'more' | 'end' | 'odd',
) {
	let skip = start;
	let want = header;
	let held = new Uint8Array(0);
	let state: 'skip' | 'head' | 'end' | 'odd' = start > 0 ? 'skip' : 'head';
	let offset = start;
	let type = '';
	/** The offset of the first part of each type. */
	const parts = new Map<string, number>();
	return {
		parts,
		state: () => (state === 'head' && held.length > 0 ? 'partial' : state),
		lastType: () => type,
		feed(chunk: Uint8Array) {
			let i = 0;
			while (i < chunk.length && (state === 'skip' || state === 'head')) {
				if (state === 'skip') {
					const taken = Math.min(skip, chunk.length - i);
					[i, skip] = [i + taken, skip - taken];
					if (skip === 0) state = 'head';
					continue;
				}
				const taken = Math.min(want - held.length, chunk.length - i);
				const joined = new Uint8Array(held.length + taken);
				joined.set(held);
				joined.set(chunk.subarray(i, i + taken), held.length);
				[held, i] = [joined, i + taken];
				if (held.length < want) continue;
				type = ascii(held, 4, 8);
				const length = next(new DataView(held.buffer), type);
				if (length === 'more') {
					want = 16;
					continue;
				}
				if (!parts.has(type)) parts.set(type, offset);
				if (length === 'end' || length === 'odd' || length < want) {
					state = length === 'end' ? 'end' : 'odd';
				} else {
					[offset, skip, held] = [offset + length, length - want, new Uint8Array(0)];
					[want, state] = [header, skip > 0 ? 'skip' : 'head'];
				}
			}
		},
	};
}

function pngWalker(): Walker {
	const walk = partWalker(8, 8, (bytes, type) =>
		type === 'IEND' ? 'end' : 12 + bytes.getUint32(0),
	);
	return {
		feed: walk.feed,
		// whole once the IEND chunk is (its 12 bytes); what may follow it is not looked at
		verdict: (size) => {
			const end = walk.parts.get('IEND');
			return end !== undefined && size >= end + 12
				? { whole: true, format: 'PNG' }
				: { whole: false, format: 'PNG', reason: 'it ends before its IEND chunk' };
		},
	};
}

/**
 * An ISO-BMFF file (HEIC, HEIF, AVIF, MP4, MOV, CR3): its top-level boxes must end exactly where the
 * file ends, a movie needs its header (moov) and its media data (mdat), and the items an image's
 * `meta` box locates in the file must lie inside it. A box "to the end of the file" cannot tell.
 */
function isoWalker(): Walker {
	const format = 'ISO-BMFF';
	const walk = partWalker(0, 8, (bytes) => {
		const size = bytes.getUint32(0);
		if (size === 0) return 'end';
		if (size !== 1) return size;
		if (bytes.byteLength < 16) return 'more';
		// a 64-bit size: beyond 2^53 bytes is no file
		const high = bytes.getUint32(8);
		return high >= 2 ** 21 ? 'odd' : high * 2 ** 32 + bytes.getUint32(12);
	});
	const cut = (reason: string): Wholeness => ({ whole: false, format, reason });
	return {
		feed: walk.feed,
		verdict(size, head) {
			const state = walk.state();
			const { parts } = walk;
			if (state === 'end' || state === 'odd') return { whole: undefined, format };
			if (state !== 'head') return cut(`its "${walk.lastType()}" box runs past the end`);
			if (parts.has('moov') && !parts.has('mdat') && !parts.has('moof'))
				return cut('it has a movie header but no media data yet');
			const meta = parts.get('meta');
			if (!parts.has('moov') && meta === undefined)
				return cut('it has no movie header (moov) or image index (meta) yet');
			const itemsEnd = meta === undefined ? undefined : heifItemsEnd(head, meta);
			if (itemsEnd !== undefined && itemsEnd > size) return cut('its image data lies past the end');
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
 * A TIFF or TIFF-based RAW file (DNG, CR2, NEF, ARW): every IFD it points to, each value stored out
 * of line and each image strip or tile must lie inside the file. IFDs are read from the file's first
 * bytes (where writers put them); one further in is taken on trust.
 */
function tiffVerdict(head: Uint8Array, size: number): Wholeness {
	const format = 'TIFF';
	const little = head[0] === 0x49;
	const view = new DataView(head.buffer, head.byteOffset, head.length);
	const u16 = (at: number) => view.getUint16(at, little);
	const u32 = (at: number) => view.getUint32(at, little);
	const cut = (reason: string): Wholeness => ({ whole: false, format, reason });
	const queue = [u32(4)];
	const seen = new Set<number>();
	while (queue.length > 0 && seen.size < MAX_IFDS) {
		const ifd = queue.shift()!;
		if (ifd === 0 || seen.has(ifd)) continue;
		seen.add(ifd);
		if (ifd + 2 > size) return cut('an IFD it points to lies past the end');
		if (ifd + 2 > head.length) continue;
		const count = u16(ifd);
		const end = ifd + 2 + count * 12 + 4;
		if (end > size) return cut('an IFD runs past the end');
		if (end > head.length) continue;
		const values = new Map<number, number[]>();
		for (let entry = ifd + 2; entry < end - 4; entry += 12) {
			const tag = u16(entry);
			const type = u16(entry + 2);
			const bytes = (TIFF_TYPE_BYTES[type] ?? 0) * u32(entry + 4);
			const at = bytes <= 4 ? entry + 8 : u32(entry + 8);
			if (bytes > 4 && at + bytes > size) return cut('a value it points to lies past the end');
			if (at + bytes > head.length || (type !== 3 && type !== 4 && type !== 13)) continue;
			const step = type === 3 ? 2 : 4;
			const list: number[] = [];
			for (let item = at; item < at + bytes && list.length < 100_000; item += step)
				list.push(step === 2 ? u16(item) : u32(item));
			values.set(tag, list);
			if (TIFF_POINTERS.has(tag)) queue.push(...list);
		}
		for (const [offsetsTag, lengthsTag] of TIFF_STRIPS) {
			const offsets = values.get(offsetsTag) ?? [];
			const lengths = values.get(lengthsTag) ?? [];
			for (let i = 0; i < Math.min(offsets.length, lengths.length); i++)
				if (offsets[i] + lengths[i] > size) return cut('its image data lies past the end');
		}
		queue.push(u32(end - 4));
	}
	return { whole: true, format };
}

/** A format whose header says its length: RIFF (WebP, AVI) and BMP. */
function declaredLength(head: Uint8Array, size: number, format: string): Wholeness {
	const view = new DataView(head.buffer, head.byteOffset, head.length);
	const declared = format === 'BMP' ? view.getUint32(2, true) : view.getUint32(4, true) + 8;
	if (declared === 0) return { whole: undefined, format };
	return declared > size
		? { whole: false, format, reason: `its header says ${declared} bytes` }
		: { whole: true, format };
}

/** A walker for formats that need only their first bytes and their size. */
function headWalker(format: string, judge: (size: number, head: Uint8Array) => Wholeness): Walker {
	return {
		feed: () => undefined,
		verdict: (size, head) =>
			head.length < SIGNATURE_BYTES ? { whole: undefined, format } : judge(size, head),
	};
}

/**
 * A GIF: its header and color table, then blocks (extensions and images, each a run of sub-blocks)
 * up to the trailer byte.
 */
function gifWalker(): Walker {
	let state: 'collect' | 'skip' | 'block' | 'blocks' | 'end' | 'odd' = 'collect';
	let held: number[] = [];
	let want = 13; // the header and logical screen descriptor
	let skip = 0;
	let then: 'block' | 'blocks' = 'block';
	/** What the bytes gathered mean: the next state and what to skip first. */
	let onHeld = (bytes: number[]) => colorTable(bytes[10], 1, 'block');
	const colorTable = (flags: number, extra: number, next: 'block' | 'blocks') => {
		[skip, then] = [(flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0) + extra - 1, next];
		state = skip > 0 ? 'skip' : next;
	};
	return {
		feed(chunk) {
			let i = 0;
			while (i < chunk.length && state !== 'end' && state !== 'odd') {
				if (state === 'skip') {
					const taken = Math.min(skip, chunk.length - i);
					[i, skip] = [i + taken, skip - taken];
					if (skip === 0) state = then;
				} else if (state === 'collect') {
					held.push(chunk[i++]);
					if (held.length === want) onHeld(held);
				} else if (state === 'blocks') {
					// sub-blocks: a size byte, that many bytes; size 0 ends the run
					[skip, then] = [chunk[i++], 'blocks'];
					state = skip === 0 ? 'block' : 'skip';
				} else {
					const kind = chunk[i++];
					if (kind === 0x3b) state = 'end';
					else if (kind === 0x21) [skip, then, state] = [1, 'blocks', 'skip'];
					else if (kind !== 0x2c) state = 'odd';
					else {
						// an image: its descriptor, its color table, the LZW code size, then its data
						[held, want, state] = [[], 9, 'collect'];
						onHeld = (bytes) => colorTable(bytes[8], 2, 'blocks');
					}
				}
			}
		},
		verdict() {
			if (state === 'end') return { whole: true, format: 'GIF' };
			if (state === 'odd') return { whole: undefined, format: 'GIF' };
			return { whole: false, format: 'GIF', reason: 'it ends before the GIF trailer' };
		},
	};
}

const ISO_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function walkerFor(start: Uint8Array): Walker | undefined {
	const head = ascii(start, 0, 8);
	if (head.startsWith('\xff\xd8\xff')) return jpegWalker();
	if (head === '\x89PNG\r\n\x1a\n') return pngWalker();
	if (ISO_FIRST_BOXES.has(ascii(start, 4, 8))) return isoWalker();
	if (head.startsWith('II*\0') || head.startsWith('MM\0*'))
		return headWalker('TIFF', (size, head) => tiffVerdict(head, size));
	const riff = { WEBP: 'WebP', 'AVI ': 'AVI' }[ascii(start, 8, 12)];
	if (ascii(start, 0, 4) === 'RIFF' && riff)
		return headWalker(riff, (size, head) => declaredLength(head, size, riff));
	if (ascii(start, 0, 2) === 'BM')
		return headWalker('BMP', (size, head) => declaredLength(head, size, 'BMP'));
	if (ascii(start, 0, 4) === 'GIF8') return gifWalker();
	return undefined;
}

/**
 * A check fed the file's bytes in order (`push`); `verdict` takes the file's first bytes (at least
 * the first MiB, which the EXIF reader keeps anyway) once all bytes were pushed. `headBytes` says
 * when fewer tell all (a JPEG's metadata ends where its image data begins).
 */
export function wholenessCheck(): {
	push: (chunk: Uint8Array) => void;
	verdict: (head: Uint8Array) => Wholeness;
	headBytes: () => number;
} {
	let start = new Uint8Array(0);
	let walker: Walker | undefined;
	let decided = false;
	let size = 0;
	// until the format is known, `start` holds every byte pushed (fewer than SIGNATURE_BYTES)
	const decide = (...chunks: Uint8Array[]) => {
		decided = true;
		walker = walkerFor(start);
		for (const chunk of chunks) walker?.feed(chunk);
	};
	return {
		push(chunk) {
			size += chunk.length;
			if (decided) return walker?.feed(chunk);
			const earlier = start;
			// only the signature's bytes are copied, never the chunk (a file may come as one buffer)
			const taken = chunk.subarray(0, SIGNATURE_BYTES);
			start = new Uint8Array(earlier.length + taken.length);
			start.set(earlier);
			start.set(taken, earlier.length);
			if (earlier.length + chunk.length >= SIGNATURE_BYTES) decide(earlier, chunk);
		},
		headBytes: () => walker?.headBytes?.() ?? Infinity,
		verdict(head) {
			if (!decided) decide(start);
			return walker ? walker.verdict(size, head) : { whole: undefined };
		},
	};
}
