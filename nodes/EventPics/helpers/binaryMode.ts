import { shownSize } from './size';

/**
 * n8n's binary data modes, as the first part of a binary's id (`<mode>:<fileId>`). In `database`
 * mode (n8n's default in queue mode) n8n reads the whole file into memory whatever is asked of it,
 * a stream included; `filesystem` and `s3` stream.
 */
const BUFFERED_MODES = ['database'];

/** Files from a buffered mode at least this large get a warning in the output. */
const BUFFERED_WARNING_BYTES = 64 * 1024 * 1024;

/**
 * The largest file n8n can read back in `database` mode on Postgres (the database of queue mode):
 * its driver hands the bytes over as hex text (two characters a byte plus "\x"), and Node refuses
 * a string longer than 0x1fffffe8 characters; a larger file fails inside the driver, outside any
 * caller's reach, and the read never ends. Just under 256 MiB.
 */
export const DATABASE_READ_LIMIT_BYTES = Math.floor((0x1fffffe8 - 2) / 2);

/** The binary data mode of a binary id when that mode cannot stream, else undefined. */
export function bufferedMode(binaryId: string): string | undefined {
	const mode = binaryId.split(':')[0];
	return BUFFERED_MODES.includes(mode) ? mode : undefined;
}

/** The output's note for a file read whole into memory because of n8n's binary data mode. */
export function bufferedWarning(mode: string, bytes: number): string | undefined {
	if (bytes < BUFFERED_WARNING_BYTES) return undefined;
	return `n8n's binary data mode "${mode}" (the default in queue mode) cannot stream: this file (${shownSize(bytes)}) was held whole in memory while it was uploaded, once for every file uploaded at the same time. For large files use the "filesystem" mode on a folder that main and workers share (N8N_BINARY_DATA_STORAGE_PATH), or "s3" where licensed.`;
}
