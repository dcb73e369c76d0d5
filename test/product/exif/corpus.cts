import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { streamSource } from '../../../nodes/EventPics/helpers/exif';

export const CORPUS_DIR = join(__dirname, '..', '..', 'fixtures', 'exif');

/** The image files of the corpus (not its script, crafting tool or README), sorted. */
export const CORPUS_FILES = readdirSync(CORPUS_DIR)
	.filter((name) => !/\.(js|sh|md)$/.test(name))
	.sort();

export function corpusFile(name: string): Uint8Array {
	return new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
}

/** An async stream of `bytes` in chunks of `chunkSize`, counting the chunks handed out. */
export function chunked(
	bytes: Uint8Array,
	chunkSize: number,
): AsyncIterable<Uint8Array> & { pulled: number } {
	const stream = {
		pulled: 0,
		async *[Symbol.asyncIterator]() {
			for (let at = 0; at < bytes.length; at += chunkSize) {
				const chunk = bytes.slice(at, at + chunkSize);
				stream.pulled += chunk.length;
				yield chunk;
			}
		},
	};
	return stream;
}

export function streamOf(bytes: Uint8Array, chunkSize = 7, maxBytes?: number) {
	return streamSource(chunked(bytes, chunkSize), maxBytes);
}
