import { ascii } from '../bytes';
import type { Reader } from './source';

/** More top-level boxes than this before `meta` is taken as corrupt (HEIF has ftyp, meta, mdat). */
const MAX_TOP_BOXES = 64;
/** The largest `meta` box and Exif item read into memory. */
const MAX_META = 512 * 1024;
const MAX_ITEM = 512 * 1024;

interface Box {
	type: string;
	/** Offset of the payload, after the header. */
	start: number;
	end: number;
}

function fourCc(bytes: Uint8Array, at: number): string {
	return ascii(bytes, at, at + 4);
}

/** The boxes inside bytes[start, end); stops at the first one that does not fit. */
function children(bytes: Uint8Array, start: number, end: number): Box[] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
	const boxes: Box[] = [];
	for (let at = start; at + 8 <= end;) {
		const size = view.getUint32(at);
		if (size < 8 || at + size > end) break;
		boxes.push({ type: fourCc(bytes, at + 4), start: at + 8, end: at + size });
		at += size;
	}
	return boxes;
}

/** Reads an unsigned integer of 0, 4 or 8 bytes (big-endian). */
function uint(view: DataView, at: number, size: number): number {
	if (size === 0) return 0;
	if (size === 4) return view.getUint32(at);
	return view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
}

/** The item ID of the first unprotected item of type 'Exif' in an `iinf` box. */
function exifItemId(bytes: Uint8Array, iinf: Box): number | undefined {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
	const first = iinf.start + 4 + (bytes[iinf.start] === 0 ? 2 : 4);
	for (const infe of children(bytes, first, iinf.end)) {
		const version = bytes[infe.start];
		if (infe.type !== 'infe' || version < 2) continue;
		const at = infe.start + 4 + (version === 2 ? 2 : 4);
		if (at + 6 > infe.end) continue;
		const id = version === 2 ? view.getUint16(infe.start + 4) : view.getUint32(infe.start + 4);
		if (view.getUint16(at) === 0 && fourCc(bytes, at + 2) === 'Exif') return id;
	}
	return undefined;
}

interface Extent {
	/** 0: offset in the file; 1: offset in `idat`. */
	method: number;
	offset: number;
	length: number;
}

interface Location {
	dataReference: number;
	extents: Extent[];
}

/** Every item's extents from an `iloc` box (versions 0 to 2); undefined when it cannot be read. */
function itemLocations(bytes: Uint8Array, iloc: Box): Map<number, Location> | undefined {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
	const version = bytes[iloc.start];
	let at = iloc.start + 4;
	if (version > 2 || at + 4 > iloc.end) return undefined;
	const offsetSize = bytes[at] >> 4;
	const lengthSize = bytes[at] & 15;
	const baseSize = bytes[at + 1] >> 4;
	const indexSize = version === 0 ? 0 : bytes[at + 1] & 15;
	if (
		![offsetSize, lengthSize, baseSize, indexSize].every(
			(size) => size === 0 || size === 4 || size === 8,
		)
	) {
		return undefined;
	}
	const wide = version === 2;
	const count = wide ? view.getUint32(at + 2) : view.getUint16(at + 2);
	at += wide ? 6 : 4;
	const locations = new Map<number, Location>();
	for (let item = 0; item < count; item++) {
		const head = (wide ? 4 : 2) + (version === 0 ? 0 : 2) + 2 + baseSize + 2;
		if (at + head > iloc.end) return undefined;
		const id = wide ? view.getUint32(at) : view.getUint16(at);
		at += wide ? 4 : 2;
		const method = version === 0 ? 0 : view.getUint16(at) & 15;
		at += version === 0 ? 0 : 2;
		const dataReference = view.getUint16(at);
		const base = uint(view, at + 2, baseSize);
		const extentCount = view.getUint16(at + 2 + baseSize);
		at += 4 + baseSize;
		const extentSize = indexSize + offsetSize + lengthSize;
		if (at + extentCount * extentSize > iloc.end) return undefined;
		const extents: Extent[] = [];
		for (let i = 0; i < extentCount; i++, at += extentSize) {
			const offset = base + uint(view, at + indexSize, offsetSize);
			extents.push({ method, offset, length: uint(view, at + indexSize + offsetSize, lengthSize) });
		}
		locations.set(id, { dataReference, extents });
	}
	return locations;
}

/** The extents of one item, when they are in this file (or its `idat`). */
function itemExtents(bytes: Uint8Array, iloc: Box, itemId: number): Extent[] | undefined {
	const location = itemLocations(bytes, iloc)?.get(itemId);
	if (!location || location.dataReference !== 0 || location.extents.length === 0) return undefined;
	return location.extents[0].method > 1 ? undefined : location.extents;
}

/**
 * Where the last byte of a HEIF/AVIF file's items lies, by its `meta` box at `offset` in `bytes` (the
 * file's first bytes): the end of the furthest extent stored at a file offset. Undefined when the box
 * is not wholly in `bytes` or cannot be read.
 */
export function heifItemsEnd(bytes: Uint8Array, offset: number): number | undefined {
	if (offset + 12 > bytes.length) return undefined;
	const size = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
	if (size < 12 || offset + size > bytes.length) return undefined;
	const iloc = children(bytes, offset + 12, offset + size).find((box) => box.type === 'iloc');
	const locations = iloc && itemLocations(bytes, iloc);
	if (!locations) return undefined;
	let end = 0;
	for (const { dataReference, extents } of locations.values())
		for (const extent of extents)
			if (dataReference === 0 && extent.method === 0)
				end = Math.max(end, extent.offset + extent.length);
	return end;
}

/**
 * Finds the Exif item of a HEIF/AVIF file (ISO BMFF): the top-level `meta` box, its `iinf` for the item
 * of type 'Exif', its `iloc` for where the item's bytes are (in `idat` or at a file offset). Returns the
 * item's bytes: a 4-byte big-endian offset, then the TIFF structure after that many header bytes.
 */
export async function findHeifExifItem(reader: Reader): Promise<Uint8Array | undefined> {
	let offset = 0;
	for (let box = 0; box < MAX_TOP_BOXES; box++) {
		const head = await reader.view(offset, 16);
		const small = head ? undefined : await reader.view(offset, 8);
		const view = head ?? small;
		if (!view) return undefined;
		let size = view.getUint32(0);
		let header = 8;
		if (size === 1 && head) {
			size = uint(head, 8, 8);
			header = 16;
		}
		if (size < header) return undefined; // also size 0, "to the end of the file": nothing follows
		const type = String.fromCharCode(
			view.getUint8(4),
			view.getUint8(5),
			view.getUint8(6),
			view.getUint8(7),
		);
		if (type === 'meta') {
			if (size > MAX_META) return undefined;
			const meta = await reader.bytes(offset, size);
			return meta && (await exifItem(reader, meta, header + 4));
		}
		offset += size;
	}
	return undefined;
}

async function exifItem(
	reader: Reader,
	meta: Uint8Array,
	first: number,
): Promise<Uint8Array | undefined> {
	const boxes = children(meta, first, meta.length);
	const find = (type: string) => boxes.find((box) => box.type === type);
	const iinf = find('iinf');
	const iloc = find('iloc');
	const id = iinf && exifItemId(meta, iinf);
	const extents = id === undefined || !iloc ? undefined : itemExtents(meta, iloc, id);
	if (!extents || extents.reduce((sum, extent) => sum + extent.length, 0) > MAX_ITEM)
		return undefined;
	const idat = find('idat');
	const parts: Uint8Array[] = [];
	for (const { method, offset, length } of extents) {
		if (method === 1) {
			const end = length === 0 ? idat?.end : (idat?.start ?? 0) + offset + length;
			if (!idat || end === undefined || idat.start + offset > end || end > idat.end)
				return undefined;
			parts.push(meta.subarray(idat.start + offset, end));
		} else {
			const part = length > 0 ? await reader.bytes(offset, length) : undefined;
			if (!part) return undefined;
			parts.push(part);
		}
	}
	if (parts.length === 1) return parts[0];
	const item = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let at = 0;
	for (const part of parts) {
		item.set(part, at);
		at += part.length;
	}
	return item;
}
