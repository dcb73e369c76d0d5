import type { IExecuteFunctions } from 'n8n-workflow';

import { bufferedMode, DATABASE_READ_LIMIT_BYTES } from '../helpers/binaryMode';
import { shownSize } from '../helpers/size';
import type { UploadBody } from './upload';

/** How a file of n8n's binary store is read. */
interface StoredReader {
	/** n8n's binary data mode that holds the file, when it cannot stream it (`database`). */
	bufferedMode?: string;
	/** Opens the file anew: for a look at its start, its content hash and each try of the PUT. */
	open: () => Promise<UploadBody>;
	/** Lets go of a file read whole into memory. */
	dispose?: () => void;
}

/** A file ready to be read, with what is known of it. */
export interface StoredFile extends StoredReader {
	fileName?: string;
	mimeType?: string;
	size: number;
}

export interface ResolvedBinary extends StoredFile {
	propertyName: string;
}

type StoredOpen =
	{ ok: true; reader: StoredReader } | { ok: false; tooLarge: string; advice: string };

const DATABASE_LIMIT_ADVICE = `n8n keeps binary data in its database (binary data mode "database", the default in queue mode) and cannot read a file over ${shownSize(DATABASE_READ_LIMIT_BYTES)} back from Postgres: the attempt fails inside the database driver and leaves the execution hanging, so the file was not read. For files this large set N8N_DEFAULT_BINARY_DATA_MODE to "filesystem" on a folder that main and workers share (N8N_BINARY_DATA_STORAGE_PATH), or "s3" where licensed.`;

/**
 * How to read a file of n8n's binary store: streamed where the mode streams. A mode that cannot
 * stream (`database` reads the whole file on every read) is read once with `readWhole` and the same
 * bytes serve the look at the start, the content hash and every try of the PUT; past what the
 * database can hand back, the file is refused before any read.
 */
export function openStored(
	ctx: IExecuteFunctions,
	id: string,
	size: number,
	readWhole: () => Promise<Buffer>,
): StoredOpen {
	const mode = bufferedMode(id);
	if (mode === undefined) {
		return { ok: true, reader: { open: async () => await ctx.helpers.getBinaryStream(id) } };
	}
	if (mode === 'database' && size > DATABASE_READ_LIMIT_BYTES) {
		return { ok: false, tooLarge: shownSize(size), advice: DATABASE_LIMIT_ADVICE };
	}
	let whole: Promise<Buffer> | undefined;
	return {
		ok: true,
		reader: {
			bufferedMode: mode,
			open: async () => await (whole ??= readWhole()),
			dispose: () => (whole = undefined),
		},
	};
}

/** Why an item's binary field cannot be read: no such field, a stored file gone, or too large for the database. */
type BinaryProblem =
	| { problem: 'noField'; present: string[] }
	| { problem: 'notStored'; id: string }
	| { problem: 'tooLarge'; size: string; advice: string };

export type BinaryLookup = { ok: true; binary: ResolvedBinary } | ({ ok: false } & BinaryProblem);

/**
 * Finds an item's binary field and how to read it: streamed from n8n's binary store when it has an
 * id (the normal case since n8n 2.0), from the inline base64 data otherwise (pinned or test data).
 * A store that cannot stream (the `database` mode, n8n's default in queue mode, reads the whole
 * file on every read) is read once and the same bytes serve the look at the start, the content
 * hash and every try of the PUT.
 */
export async function resolveBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<BinaryLookup> {
	const item = ctx.getInputData()[itemIndex];
	const binaries = item?.binary ?? {};
	// own fields only: "__proto__" or "constructor" name no file
	const binary = Object.hasOwn(binaries, propertyName) ? binaries[propertyName] : undefined;
	if (!binary) return { ok: false, problem: 'noField', present: Object.keys(binaries) };
	if (binary.id) {
		const { id } = binary;
		let metadata: Awaited<ReturnType<typeof ctx.helpers.getBinaryMetadata>>;
		try {
			metadata = await ctx.helpers.getBinaryMetadata(id);
		} catch {
			return { ok: false, problem: 'notStored', id };
		}
		const stored = openStored(
			ctx,
			id,
			metadata.fileSize,
			async () => await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName),
		);
		if (!stored.ok)
			return { ok: false, problem: 'tooLarge', size: stored.tooLarge, advice: stored.advice };
		return {
			ok: true,
			binary: {
				propertyName,
				fileName: binary.fileName ?? metadata.fileName,
				mimeType: binary.mimeType || metadata.mimeType,
				size: metadata.fileSize,
				...stored.reader,
			},
		};
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return {
		ok: true,
		binary: {
			propertyName,
			fileName: binary.fileName,
			mimeType: binary.mimeType,
			size: buffer.length,
			open: async () => buffer,
		},
	};
}
