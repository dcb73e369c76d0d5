import data from './mediaTypes.generated.json';

/**
 * mime-types' answers without mime-types (runtime code may not import it): mediaTypes.generated.json
 * holds, for every extension and media type mime-types knows, what its lookup() and extension()
 * answer (written by `npx gulp generate`); the two functions below ask the same questions the same
 * way. test/product/build/mediaTypes.test.cts proves the answers equal mime-types' own.
 */
function frozenTable(rows: string[][]): Readonly<Record<string, string>> {
	// No prototype: a name such as "constructor" or "toString" is never found by accident.
	const table: Record<string, string> = Object.create(null);
	for (const [key, value] of rows) table[key] = value;
	return Object.freeze(table);
}

/** Every extension mime-types knows (lower case, no dot) -> mime.lookup('x.' + extension). */
export const EXTENSION_TO_MEDIA_TYPE = frozenTable(data.extensionToMediaType);

/** Every media type mime-types knows an extension for -> mime.extension(type). */
export const MEDIA_TYPE_TO_EXTENSION = frozenTable(data.mediaTypeToExtension);

function ownValue(table: Readonly<Record<string, string>>, key: string): string | false {
	return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : false;
}

/**
 * The extension of the last path segment, dot included, as POSIX path.extname() returns it:
 * trailing slashes are ignored, and a name whose only dot is its first character
 * (".bashrc") has no extension.
 */
function extensionOfPath(filePath: string): string {
	let end = filePath.length;
	while (end > 0 && filePath[end - 1] === '/') end--;
	const baseName = filePath.slice(filePath.lastIndexOf('/', end - 1) + 1, end);
	if (baseName === '..') return '';
	const dot = baseName.lastIndexOf('.');
	return dot > 0 ? baseName.slice(dot) : '';
}

/**
 * The media type for a file name, a path, or a bare extension ("jpg" or ".jpg"), as
 * mime-types' lookup() answers it: the extension is matched case-insensitively; false when the
 * name has no extension or the extension is unknown.
 */
export function lookupMediaType(fileName: string): string | false {
	if (typeof fileName !== 'string' || fileName === '') return false;
	const extension = extensionOfPath(`x.${fileName}`).toLowerCase().slice(1);
	if (!extension) return false;
	return ownValue(EXTENSION_TO_MEDIA_TYPE, extension);
}

/**
 * The default extension (without dot) for a media type, as mime-types' extension() answers it:
 * leading whitespace is skipped, the type ends at the first ";" or whitespace (so parameters such
 * as "; charset=utf-8" are ignored), and it is matched case-insensitively; false when unknown.
 */
export function extensionForMediaType(type: string): string | false {
	if (typeof type !== 'string' || type === '') return false;
	const rest = type.trimStart();
	const end = rest.search(/[;\s]/);
	const essence = (end === -1 ? rest : rest.slice(0, end)).toLowerCase();
	return ownValue(MEDIA_TYPE_TO_EXTENSION, essence);
}
