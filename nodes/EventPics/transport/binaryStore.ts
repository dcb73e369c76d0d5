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
