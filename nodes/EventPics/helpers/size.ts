const MIB = 1024 * 1024;

/** A size as errors and output show it: bytes under 1 MiB, else MiB to one decimal place. */
export function shownSize(bytes: number): string {
	return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MiB` : `${bytes} bytes`;
}
