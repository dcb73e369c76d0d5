/** Builders of synthetic TIFF, JPEG, PNG and HEIF bytes for the unit tests. */

export interface Entry {
	tag: number;
	/** A string is written as ASCII (type 2) with a NUL; a number as LONG (type 4), count 1. */
	value: string | number;
	/** Overrides the type written. */
	type?: number;
	/** Overrides the count written (for a string: its length + 1). */
	count?: number;
}

/** Tag numbers of the Exif standard (the exiftool comparison reads the same tags by name). */
export const T = {
	DateTime: 0x0132,
	ExifIfd: 0x8769,
	DateTimeOriginal: 0x9003,
	CreateDate: 0x9004,
	OffsetTime: 0x9010,
	OffsetTimeOriginal: 0x9011,
	OffsetTimeDigitized: 0x9012,
	SubSecTime: 0x9290,
	SubSecTimeOriginal: 0x9291,
	SubSecTimeDigitized: 0x9292,
} as const;

export const concat = (...parts: Uint8Array[]) => {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
};

export const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

export const be32 = (value: number) => {
	const out = new Uint8Array(4);
	new DataView(out.buffer).setUint32(0, value);
	return out;
};

/**
 * A TIFF structure: header, IFD0 at 8, then the Exif IFD (if `exif` is given, IFD0 gets its pointer),
 * then the values that do not fit in 4 bytes. `ifd0Offset` overrides the header's IFD0 offset.
 */
export function buildTiff(
	order: 'II' | 'MM',
	ifd0: Entry[],
	exif?: Entry[],
	options: { ifd0Offset?: number; nextIfd?: number } = {},
): Uint8Array {
	const little = order === 'II';
	const ifds = exif ? [[...ifd0, { tag: T.ExifIfd, value: 0 }], exif] : [ifd0];
	const ifdSize = (entries: Entry[]) => 2 + entries.length * 12 + 4;
	const offsets = [8, 8 + ifdSize(ifds[0])];
	let dataAt = 8 + ifds.reduce((n, e) => n + ifdSize(e), 0);
	const size =
		dataAt +
		ifds.flat().reduce((n, e) => n + (typeof e.value === 'string' ? e.value.length + 2 : 0), 0);
	const out = new Uint8Array(size);
	const view = new DataView(out.buffer);
	out.set(ascii(order));
	view.setUint16(2, 42, little);
	view.setUint32(4, options.ifd0Offset ?? 8, little);
	ifds.forEach((entries, n) => {
		let at = offsets[n];
		view.setUint16(at, entries.length, little);
		at += 2;
		for (const entry of entries) {
			const value =
				entry.tag === T.ExifIfd && exif && n === 0 && entry.value === 0 ? offsets[1] : entry.value;
			view.setUint16(at, entry.tag, little);
			if (typeof value === 'number') {
				view.setUint16(at + 2, entry.type ?? 4, little);
				view.setUint32(at + 4, entry.count ?? 1, little);
				view.setUint32(at + 8, value, little);
			} else {
				const bytes = concat(ascii(value), new Uint8Array(1));
				view.setUint16(at + 2, entry.type ?? 2, little);
				view.setUint32(at + 4, entry.count ?? bytes.length, little);
				if (bytes.length <= 4) {
					out.set(bytes, at + 8);
				} else {
					view.setUint32(at + 8, dataAt, little);
					out.set(bytes, dataAt);
					dataAt += bytes.length + (bytes.length % 2);
				}
			}
			at += 12;
		}
		view.setUint32(at, n === 0 ? (options.nextIfd ?? 0) : 0, little);
	});
	return out;
}

/** A JPEG segment: marker and payload (length computed). */
export function segment(marker: number, payload: Uint8Array): Uint8Array {
	return concat(
		new Uint8Array([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
		payload,
	);
}

export const JFIF = segment(0xe0, ascii('JFIF\0\x01\x01\0\0\x01\0\x01\0\0'));

/** SOI, the given segments, an Exif APP1 holding `tiff` (unless null), SOS, `imageData`, EOI. */
export function buildJpeg(
	tiff: Uint8Array | null,
	before: Uint8Array[] = [JFIF],
	imageData = new Uint8Array(16),
) {
	const app1 = tiff ? [segment(0xe1, concat(ascii('Exif\0\0'), tiff))] : [];
	const sos = segment(0xda, new Uint8Array([1, 1, 0, 0, 0x3f, 0]));
	return concat(
		new Uint8Array([0xff, 0xd8]),
		...before,
		...app1,
		sos,
		imageData,
		new Uint8Array([0xff, 0xd9]),
	);
}

/** A PNG chunk (the CRC is not checked by the reader, so zeros). */
export function chunk(type: string, data: Uint8Array): Uint8Array {
	return concat(be32(data.length), ascii(type), data, new Uint8Array(4));
}

export const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function buildPng(...chunks: Uint8Array[]): Uint8Array {
	return concat(
		PNG_SIGNATURE,
		chunk('IHDR', new Uint8Array(13)),
		...chunks,
		chunk('IEND', new Uint8Array(0)),
	);
}

/** An ISO BMFF box. */
export function box(type: string, ...payload: Uint8Array[]): Uint8Array {
	const body = concat(...payload);
	return concat(be32(8 + body.length), ascii(type), body);
}

const full = (version: number) => new Uint8Array([version, 0, 0, 0]);

export interface HeifOptions {
	/** Where the Exif item lives: in idat, or at a file offset after `mdatBefore` bytes of mdat. */
	inIdat?: boolean;
	mdatBefore?: number;
	ilocVersion?: 0 | 1 | 2;
	infeVersion?: 2 | 3;
	itemType?: string;
	protectionIndex?: number;
	dataReferenceIndex?: number;
	constructionMethod?: number;
	/** Split the item into this many extents. */
	extents?: number;
	/** The item's bytes; by default a 4-byte 6 then "Exif\0\0" then the TIFF. */
	item?: Uint8Array;
}

/** A HEIF with one item (ID 1) holding `tiff` as its Exif item, laid out as `options` say. */
export function buildHeif(tiff: Uint8Array, options: HeifOptions = {}): Uint8Array {
	const item = options.item ?? concat(be32(6), ascii('Exif\0\0'), tiff);
	const version = options.ilocVersion ?? 1;
	const infeVersion = options.infeVersion ?? 2;
	const id = infeVersion === 2 ? new Uint8Array([0, 1]) : be32(1);
	const protection = new Uint8Array([0, options.protectionIndex ?? 0]);
	const infe = box(
		'infe',
		full(infeVersion),
		id,
		protection,
		ascii(options.itemType ?? 'Exif'),
		new Uint8Array(1),
	);
	const iinf = box(
		'iinf',
		full(0),
		new Uint8Array([0, 1]),
		box('infe', full(2), new Uint8Array([0, 2, 0, 0]), ascii('hvc1'), new Uint8Array(1)),
		infe,
	);
	const ftyp = box('ftyp', ascii('heic'), be32(0), ascii('mif1heic'));
	const hdlr = box('hdlr', full(0), be32(0), ascii('pict'), new Uint8Array(13));
	const method = options.constructionMethod ?? (options.inIdat ? 1 : 0);
	const parts = options.extents ?? 1;
	const cut = (i: number) => Math.floor((item.length * i) / parts);
	const iloc = (fileOffset: number) => {
		const itemId = version === 2 ? be32(1) : new Uint8Array([0, 1]);
		const methodField = version === 0 ? new Uint8Array(0) : new Uint8Array([0, method]);
		const extents = Array.from({ length: parts }, (_, i) =>
			concat(be32(cut(i)), be32(cut(i + 1) - cut(i))),
		);
		return box(
			'iloc',
			full(version),
			new Uint8Array([0x44, 0x40]), // offset 4, length 4, base offset 4, index 0
			version === 2 ? be32(1) : new Uint8Array([0, 1]),
			itemId,
			methodField,
			new Uint8Array([0, options.dataReferenceIndex ?? 0]),
			be32(method === 1 ? 0 : fileOffset), // base offset
			new Uint8Array([0, parts]),
			...extents,
		);
	};
	const idat = options.inIdat ? [box('idat', item)] : [];
	const metaSize = box('meta', full(0), hdlr, iinf, iloc(0), ...idat).length;
	const mdatBefore = options.mdatBefore ?? 0;
	const itemOffset = ftyp.length + metaSize + 8 + mdatBefore;
	const meta = box('meta', full(0), hdlr, iinf, iloc(itemOffset), ...idat);
	const mdat = options.inIdat
		? box('mdat', new Uint8Array(mdatBefore))
		: box('mdat', new Uint8Array(mdatBefore), item);
	return concat(ftyp, meta, mdat);
}
