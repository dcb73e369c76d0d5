import { DateTime } from 'luxon';

import { ascii } from './media';
import { wallClockToEpochMs } from './takenAt';

/**
 * When a photo was taken, from the EXIF of its first MiB: JPEG, TIFF and RAW, HEIF/AVIF and PNG.
 * Every read is bounds-checked; missing, corrupt or truncated data gives no date.
 */

export interface ExifCaptureTime {
	/** 'YYYY-MM-DDTHH:mm:ss' or with '.SSS': the local time as written in the file. */
	dateTime: string;
	/** '+02:00': the offset written with that date, if any. */
	offset?: string;
	tag: 'DateTimeOriginal' | 'CreateDate' | 'DateTime';
}

/** Each date tag with its offset and sub-second tags, in the order they are tried; IFD0 holds DateTime. */
const CHOICES = [
	['DateTimeOriginal', 0x9003, 0x9011, 0x9291],
	['CreateDate', 0x9004, 0x9012, 0x9292],
	['DateTime', 0x0132, 0x9010, 0x9290],
] as const;

/** An Exif date "YYYY:MM:DD HH:MM:SS" as 'YYYY-MM-DDTHH:mm:ss'; blank, zero or impossible dates give undefined. */
export function parseExifDate(value: string): string | undefined {
	const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2}) *$/.exec(value);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
	const date = DateTime.utc(year, month, day, hour, minute, second);
	// luxon takes 24:00:00 as the next midnight (ISO 8601 allows it); Exif does not
	if (year < 1 || !date.isValid || date.hour !== hour) return undefined;
	return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

/** An Exif sub-second value (digits of a fraction, "12" = 0.12 s) as '.SSS' (truncated). */
export function parseSubSec(value: string): string | undefined {
	const digits = value.trim();
	return /^\d+$/.test(digits) ? `.${digits.slice(0, 3).padEnd(3, '0')}` : undefined;
}

/** An Exif offset "+HH:MM" (at most 14 hours), else undefined. */
export function parseOffset(value: string): string | undefined {
	const m = /^([+-])(\d{2}):(\d{2})$/.exec(value.trim());
	return m && Number(m[2]) * 60 + Number(m[3]) <= 14 * 60 && Number(m[3]) < 60 ? m[0] : undefined;
}

/** Milliseconds since 1970 of a capture time: its own offset if it has one, else the wall clock of `timeZone`. */
export function toEpochMs(t: { dateTime: string; offset?: string }, timeZone: string) {
	if (!/^(?!0000)\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):\d{2}:\d{2}(?:\.\d{1,3})?$/.test(t.dateTime))
		return undefined;
	if (t.offset === undefined)
		return wallClockToEpochMs(DateTime.fromISO(t.dateTime, { zone: timeZone }));
	const offset = parseOffset(t.offset);
	const instant = offset ? DateTime.fromISO(t.dateTime + offset) : undefined;
	return instant?.isValid ? instant.toMillis() : undefined;
}

/** Bounds-checked reads of `bytes`: a view of exactly `length` bytes, or undefined. */
function viewOf(bytes: Uint8Array, at: number, length: number): DataView | undefined {
	if (!Number.isSafeInteger(at) || at < 0 || length < 0 || at + length > bytes.length)
		return undefined;
	return new DataView(bytes.buffer, bytes.byteOffset + at, length);
}

/** A JPEG's TIFF structure: its first APP1 "Exif" segment before the image data (of 1,000 segments). */
function jpegTiff(bytes: Uint8Array): Uint8Array | undefined {
	for (let [at, segment] = [2, 0]; segment < 1000; segment++) {
		if (bytes[at] !== 0xff || at + 4 > bytes.length) return undefined;
		const marker = bytes[at + 1];
		if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			at += marker === 0xff ? 1 : 2; // fill byte, or a marker without a length
			continue;
		}
		const length = (bytes[at + 2] << 8) | bytes[at + 3];
		if (marker === 0xda || marker === 0xd9 || length < 2) return undefined;
		if (marker === 0xe1 && length >= 8 && ascii(bytes, at + 4, at + 9) === 'Exif\0')
			return bytes.subarray(at + 10, at + 2 + length);
		at += 2 + length;
	}
	return undefined;
}

/** A PNG's eXIf chunk, wherever it is (ImageMagick writes it after IDAT); a leading "Exif\0\0" skipped. */
function pngTiff(bytes: Uint8Array): Uint8Array | undefined {
	for (let [at, chunk] = [8, 0]; chunk < 10_000; chunk++) {
		const length = viewOf(bytes, at, 8)?.getUint32(0) ?? Infinity;
		const type = ascii(bytes, at + 4, at + 8);
		if (length > 0x7fffffff || type === 'IEND') return undefined;
		const skip = ascii(bytes, at + 8, at + 14) === 'Exif\0\0' ? 6 : 0;
		if (type === 'eXIf') return bytes.subarray(at + 8 + skip, at + 8 + length);
		at += 12 + length;
	}
	return undefined;
}

/** An unsigned big-endian integer of 0, 2, 4 or 8 bytes. */
function uint(view: DataView, at: number, size: number): number {
	if (size === 8) return Number(view.getBigUint64(at));
	return size === 4 ? view.getUint32(at) : size === 2 ? view.getUint16(at) : 0;
}

const dataView = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.length);

/** An ISO-BMFF box: its type and its payload (a view of the file's bytes). */
type Box = { type: string; body: Uint8Array };

/** The boxes one after the other in `bytes`; stops at the first one that does not fit. */
function children(bytes: Uint8Array): Box[] {
	const boxes: Box[] = [];
	for (let at = 0; at + 8 <= bytes.length;) {
		const size = dataView(bytes).getUint32(at);
		if (size < 8 || at + size > bytes.length) break;
		boxes.push({ type: ascii(bytes, at + 4, at + 8), body: bytes.subarray(at + 8, at + size) });
		at += size;
	}
	return boxes;
}

/** Method 0: at an offset in the file; 1: in `idat`. */
type Extent = [method: number, offset: number, length: number];

/** Every item's data reference and extents from the payload of an `iloc` box, versions 0 to 2. */
function itemLocations(iloc: Uint8Array) {
	const view = dataView(iloc);
	const version = iloc[0];
	if (version > 2 || iloc.length < 8) return undefined;
	const [offsetSize, lengthSize] = [iloc[4] >> 4, iloc[4] & 15];
	const [baseSize, indexSize] = [iloc[5] >> 4, version === 0 ? 0 : iloc[5] & 15];
	if (![offsetSize, lengthSize, baseSize, indexSize].every((size) => [0, 4, 8].includes(size)))
		return undefined;
	const [idSize, methodSize] = [version === 2 ? 4 : 2, version === 0 ? 0 : 2];
	const count = uint(view, 6, idSize);
	const extentSize = indexSize + offsetSize + lengthSize;
	const locations = new Map<number, { reference: number; extents: Extent[] }>();
	for (let [item, at] = [0, 6 + idSize]; item < count; item++) {
		if (at + idSize + methodSize + 4 + baseSize > iloc.length) return undefined;
		const id = uint(view, at, idSize);
		const method = methodSize ? view.getUint16(at + idSize) & 15 : 0;
		at += idSize + methodSize;
		const reference = view.getUint16(at);
		const base = uint(view, at + 2, baseSize);
		const extentCount = view.getUint16(at + 2 + baseSize);
		at += 4 + baseSize;
		if (at + extentCount * extentSize > iloc.length) return undefined;
		const extents: Extent[] = [];
		for (let i = 0; i < extentCount; i++, at += extentSize) {
			const offset = base + uint(view, at + indexSize, offsetSize);
			extents.push([method, offset, uint(view, at + indexSize + offsetSize, lengthSize)]);
		}
		locations.set(id, { reference, extents });
	}
	return locations;
}

/** The boxes in the `meta` box of an ISO-BMFF file, among its first 64 top-level boxes (or at `offset`). */
function metaBoxes(bytes: Uint8Array, offset?: number): Box[] | undefined {
	for (let [at, box] = [offset ?? 0, 0]; box < 64 && at + 8 <= bytes.length; box++) {
		// a 64-bit size follows a size of 1; 0 ("to the end of the file") leaves nothing after it
		let size = dataView(bytes).getUint32(at);
		if (size === 1) size = at + 16 <= bytes.length ? uint(dataView(bytes), at + 8, 8) : 0;
		if (size < 8) return undefined;
		if (ascii(bytes, at + 4, at + 8) === 'meta')
			return at + size > bytes.length || size > 512 * 1024
				? undefined
				: children(bytes.subarray(at + 12, at + size));
		if (offset !== undefined) return undefined;
		at += size;
	}
	return undefined;
}

/** Where a HEIF/AVIF file's items stored in the file end, by its `meta` box at `offset` (wholeness.ts asks). */
export function heifItemsEnd(bytes: Uint8Array, offset: number): number | undefined {
	const iloc = metaBoxes(bytes, offset)?.find((box) => box.type === 'iloc');
	const locations = iloc && itemLocations(iloc.body);
	if (!locations) return undefined;
	let end = 0;
	for (const { reference, extents } of locations.values())
		for (const [method, start, length] of extents)
			if (reference === 0 && method === 0) end = Math.max(end, start + length);
	return end;
}

/** The Exif item of a HEIF/AVIF file: `iinf` for the item of type 'Exif', `iloc` for its bytes. */
function heifTiff(bytes: Uint8Array): Uint8Array | undefined {
	const boxes = metaBoxes(bytes) ?? [];
	const [iinf, iloc, idat] = ['iinf', 'iloc', 'idat'].map((t) => boxes.find((b) => b.type === t));
	if (!iinf || !iloc) return undefined;
	// item entries of version 2 (a 16-bit id) or 3 (32-bit), then a protection index of 0 and a type
	const exif = children(iinf.body.subarray(iinf.body[0] === 0 ? 6 : 8)).find(({ type, body }) => {
		const at = body[0] === 2 ? 6 : 8;
		return type === 'infe' && body[0] >= 2 && ascii(body, at, at + 6) === '\0\0Exif';
	});
	const id = exif && uint(dataView(exif.body), 4, exif.body[0] === 2 ? 2 : 4);
	const location = id === undefined ? undefined : itemLocations(iloc.body)?.get(id);
	if (!location || location.reference !== 0 || location.extents.length === 0) return undefined;
	const parts: Uint8Array[] = [];
	for (const [method, offset, length] of location.extents) {
		const source = method === 0 ? bytes : method === 1 ? idat?.body : undefined;
		const end = length === 0 && method === 1 ? source?.length : offset + length;
		if (!source || end === undefined || end > source.length || end <= offset) return undefined;
		parts.push(source.subarray(offset, end));
	}
	const item = parts.length === 1 ? parts[0] : new Uint8Array(Buffer.concat(parts));
	if (item.length < 8 || item.length > 512 * 1024) return undefined;
	// as exiftool: the 4-byte header size may be missing, before a TIFF or an "Exif\0\0" header
	if (['II*\0', 'MM\0*'].includes(ascii(item, 0, 4))) return item;
	if (ascii(item, 0, 6) === 'Exif\0\0') return item.subarray(6);
	const start = 4 + dataView(item).getUint32(0);
	return start < item.length ? item.subarray(start) : undefined;
}

/** The date tags of IFD0 and its Exif IFD: no other IFD is visited, so no pointer can make it loop. */
function tiffTags(tiff: Uint8Array = new Uint8Array(0)): Map<number, string> {
	const found = new Map<number, string>();
	const order = ascii(tiff, 0, 4);
	if ((order !== 'II*\0' && order !== 'MM\0*') || tiff.length < 8) return found;
	const little = order[0] === 'I';
	const readIfd = (at: number, wanted: number[]): number | undefined => {
		const count = viewOf(tiff, at, 2)?.getUint16(0, little) ?? 0;
		const entries = count <= 1000 ? viewOf(tiff, at + 2, count * 12) : undefined;
		let exifIfd: number | undefined;
		for (let i = 0; entries && i < count * 12; i += 12) {
			const [tag, type] = [entries.getUint16(i, little), entries.getUint16(i + 2, little)];
			const length = entries.getUint32(i + 4, little);
			const value = length <= 4 ? at + 2 + i + 8 : entries.getUint32(i + 8, little);
			if (tag === 0x8769 /* the Exif IFD */ && (type === 4 || type === 13) && length === 1)
				exifIfd ??= entries.getUint32(i + 8, little);
			else if (wanted.includes(tag) && !found.has(tag) && type === 2 && length <= 64) {
				if (value + length <= tiff.length)
					found.set(tag, ascii(tiff, value, value + length).split('\0')[0]);
			}
		}
		return exifIfd;
	};
	const ifd0 = dataView(tiff).getUint32(4, little);
	const exifIfd = ifd0 >= 8 ? readIfd(ifd0, [0x0132]) : undefined;
	const inExif = CHOICES.flatMap(([, ...tags]) => tags).filter((tag) => tag !== 0x0132);
	if (exifIfd !== undefined && exifIfd >= 8 && exifIfd !== ifd0) readIfd(exifIfd, inExif);
	return found;
}

/** The first valid of DateTimeOriginal, CreateDate, DateTime, with that date's offset and sub-seconds. */
export function readCaptureTime(bytes: Uint8Array): ExifCaptureTime | undefined {
	const start = ascii(bytes, 0, 8);
	let tags = new Map<number, string>();
	try {
		if (start.startsWith('\xff\xd8\xff')) tags = tiffTags(jpegTiff(bytes));
		else if (['II*\0', 'MM\0*'].includes(start.slice(0, 4))) tags = tiffTags(bytes);
		else if (start === '\x89PNG\r\n\x1a\n') tags = tiffTags(pngTiff(bytes));
		else if (start.slice(4) === 'ftyp') tags = tiffTags(heifTiff(bytes));
	} catch {
		// a safety net: bad data must not fail the upload
	}
	for (const [tag, dateTag, offsetTag, subSecTag] of CHOICES) {
		const date = parseExifDate(tags.get(dateTag) ?? '');
		if (date === undefined) continue;
		const subSec = parseSubSec(tags.get(subSecTag) ?? '') ?? '';
		const offset = parseOffset(tags.get(offsetTag) ?? '');
		return offset ? { dateTime: date + subSec, offset, tag } : { dateTime: date + subSec, tag };
	}
	return undefined;
}
