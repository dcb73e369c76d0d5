import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

export const CORPUS_DIR = join(__dirname, '..', '..', 'fixtures', 'exif');

/** The image files of the corpus (not its script, crafting tool or README), sorted. */
export const CORPUS_FILES = readdirSync(CORPUS_DIR)
	.filter((name) => !/\.(js|sh|md)$/.test(name))
	.sort();

/** Every image of the EXIF corpus, the samples and the whole-file set: name and bytes. */
export const FIXTURE_IMAGES = ['exif', 'samples', 'whole'].flatMap((folder) =>
	readdirSync(join(CORPUS_DIR, '..', folder))
		.filter((name) => !/\.(js|sh|md)$/.test(name))
		.map((name) => ({
			name,
			bytes: new Uint8Array(readFileSync(join(CORPUS_DIR, '..', folder, name))),
		})),
);

export function corpusFile(name: string): Uint8Array {
	return new Uint8Array(readFileSync(join(CORPUS_DIR, name)));
}

/**
 * `bytes` as a view in the middle of a larger buffer, the file itself again after it: the reader
 * must keep to the view (its byteOffset and length), as it gets the first MiB of a larger file.
 */
export function embedded(bytes: Uint8Array): Uint8Array {
	const buffer = new Uint8Array(13 + 2 * bytes.length).fill(0xff);
	buffer.set(bytes, 13);
	buffer.set(bytes, 13 + bytes.length);
	return buffer.subarray(13, 13 + bytes.length);
}
