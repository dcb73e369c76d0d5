const KIB = 1024;
const MIB = 1024 * 1024;

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * A size as errors and output show it, the one way the node words sizes: bytes under 1 KiB, KiB
 * under 1 MiB, else MiB; to one decimal place.
 */
export function shownSize(bytes: number): string {
	if (bytes >= MIB) return `${oneDecimal(bytes / MIB)} MiB`;
	if (bytes >= KIB) return `${oneDecimal(bytes / KIB)} KiB`;
	return `${bytes} bytes`;
}
