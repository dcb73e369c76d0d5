// Proves that the committed media type data (mediaTypes.generated.json, written by `npx gulp generate`)
// holds exactly what the installed mime-types answers, and that the lookup code over it
// (helpers/media.ts) answers exactly like mime-types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import mime from 'mime-types';

import {
	EXTENSION_TO_MEDIA_TYPE,
	MEDIA_TYPE_TO_EXTENSION,
	extensionForMediaType,
	lookupMediaType,
} from '../../../nodes/EventPics/helpers/media';
import { prng } from '../unit/prng.cts';

const HELPERS = path.join(__dirname, '..', '..', '..', 'nodes', 'EventPics', 'helpers');
/** The versions the committed table was generated from (the JSON's own record; the product reads no version). */
const GENERATED = JSON.parse(
	fs.readFileSync(path.join(HELPERS, 'mediaTypes.generated.json'), 'utf8'),
) as {
	mimeTypes: string;
	mimeDb: string;
};
const MIME_TYPES_VERSION = GENERATED.mimeTypes;
const MIME_DB_VERSION = GENERATED.mimeDb;
const REGENERATE = 'run `npx gulp generate` after changing mime-types, and commit the result';

/** No problems, or a failure that says how to fix them. */
function expectNone(problems: unknown[]): void {
	expect({ problems, fix: problems.length > 0 ? REGENERATE : '' }).toEqual({
		problems: [],
		fix: '',
	});
}

function packageVersion(name: string): string {
	return JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

const knownExtensions = Object.keys(mime.types);
const knownTypes = Object.keys(mime.extensions);

type Mismatch = { input: string; ours: string | false; mimeTypes: string | false };

/** The inputs on which our function answers otherwise than mime-types'. */
function mismatches(
	ours: (input: string) => string | false,
	theirs: (input: string) => string | false,
	inputs: string[],
): Mismatch[] {
	return inputs
		.map((input) => ({ input, ours: ours(input), mimeTypes: theirs(input) }))
		.filter((row) => row.ours !== row.mimeTypes);
}
const lookupMismatches = (inputs: string[]) => mismatches(lookupMediaType, mime.lookup, inputs);
const extensionMismatches = (inputs: string[]) =>
	mismatches(extensionForMediaType, mime.extension, inputs);

describe('generated media type table', () => {
	it('was generated from the installed mime-types and mime-db', () => {
		const installed = `mime-types ${packageVersion('mime-types')}, mime-db ${packageVersion('mime-db')}`;
		const table = `mime-types ${MIME_TYPES_VERSION}, mime-db ${MIME_DB_VERSION}`;
		expectNone(table === installed ? [] : [{ table, installed }]);
		expect(MIME_TYPES_VERSION).toBe('3.0.2');
	});

	it('is only data: versions and [key, value] rows of strings', () => {
		const data = JSON.parse(
			fs.readFileSync(path.join(HELPERS, 'mediaTypes.generated.json'), 'utf8'),
		);
		expect(Object.keys(data).sort()).toEqual(
			['extensionToMediaType', 'generated', 'mediaTypeToExtension', 'mimeDb', 'mimeTypes'].sort(),
		);
		for (const rows of [data.extensionToMediaType, data.mediaTypeToExtension]) {
			const wrong = rows.filter(
				(row: unknown) =>
					!Array.isArray(row) || row.length !== 2 || row.some((cell) => typeof cell !== 'string'),
			);
			expect(wrong).toEqual([]);
		}
	});

	it('holds exactly the extensions mime-types knows, each with lookup("x." + ext)', () => {
		expect(knownExtensions.length).toBeGreaterThan(1000);
		const ours = Object.keys(EXTENSION_TO_MEDIA_TYPE);
		expectNone([
			...knownExtensions.filter((ext) => EXTENSION_TO_MEDIA_TYPE[ext] !== mime.lookup(`x.${ext}`)),
			...ours.filter((ext) => !knownExtensions.includes(ext)),
		]);
		expect(ours.sort()).toEqual([...knownExtensions].sort());
	});

	it('holds exactly the media types mime-types knows, each with extension(type)', () => {
		expect(knownTypes.length).toBeGreaterThan(900);
		const ours = Object.keys(MEDIA_TYPE_TO_EXTENSION);
		expectNone([
			...knownTypes.filter((type) => MEDIA_TYPE_TO_EXTENSION[type] !== mime.extension(type)),
			...ours.filter((type) => !knownTypes.includes(type)),
		]);
		expect(ours.sort()).toEqual([...knownTypes].sort());
	});

	it('is frozen and has no inherited members', () => {
		expect(Object.isFrozen(EXTENSION_TO_MEDIA_TYPE)).toBe(true);
		expect(Object.isFrozen(MEDIA_TYPE_TO_EXTENSION)).toBe(true);
		expect(Object.getPrototypeOf(EXTENSION_TO_MEDIA_TYPE)).toBeNull();
		expect(Object.getPrototypeOf(MEDIA_TYPE_TO_EXTENSION)).toBeNull();
		expect(EXTENSION_TO_MEDIA_TYPE['constructor']).toBeUndefined();
		expect(MEDIA_TYPE_TO_EXTENSION['toString']).toBeUndefined();
	});
});

describe('lookupMediaType equals mime.lookup', () => {
	it('for every known extension as file name, upper-case name, bare, dotted and in a path', () => {
		const inputs: string[] = [];
		for (const ext of knownExtensions) {
			inputs.push(
				`name.${ext}`,
				`NAME.${ext.toUpperCase()}`,
				`Name.${ext[0].toUpperCase()}${ext.slice(1)}`,
				ext,
				ext.toUpperCase(),
				`.${ext}`,
				`dir/sub dir/photo.${ext}`,
				`/abs/path/archive.tar.${ext}`,
			);
		}
		expect(inputs.length).toBe(knownExtensions.length * 8);
		expect(lookupMismatches(inputs)).toEqual([]);
		// and every answer is a real media type, not false
		expect(
			knownExtensions.filter((ext) => lookupMediaType(`NAME.${ext.toUpperCase()}`) === false),
		).toEqual([]);
	});

	it('for paths, names without or with an unknown extension, dot files, prototype names and non-strings', () => {
		const inputs = [
			...['a/b/c/IMG_0001.JPG', 'photo.jpg/', 'my.photos/photo.png', 'C:\\Users\\anna\\photo.jpeg'],
			...[
				'photo',
				'photo.',
				'',
				'dir.jpg/photo',
				'dir/.jpg',
				'dir/.bashrc',
				'.bashrc',
				'..',
				'a/..',
			],
			...['photo.unknownext', 'photo.jpg.part', 'x.constructor', 'x.__proto__', 'toString'],
			...([undefined, null, 42, {}, ['photo.jpg']] as unknown as string[]),
		];
		expect(lookupMismatches(inputs)).toEqual([]);
		expect(inputs.slice(4).filter((input) => lookupMediaType(input) !== false)).toEqual([]);
	});
});

describe('extensionForMediaType equals mime.extension', () => {
	it('for every known type, with parameters, upper case and surrounding whitespace', () => {
		const inputs: string[] = [];
		for (const type of knownTypes) {
			inputs.push(
				type,
				`${type}; charset=utf-8`,
				`${type};charset=UTF-8`,
				`${type} ; charset="utf-8"`,
				type.toUpperCase(),
				`${type.toUpperCase()}; CHARSET=UTF-8`,
				`  ${type}`,
				`\t${type}\t`,
				`${type} trailing words`,
			);
		}
		expect(inputs.length).toBe(knownTypes.length * 9);
		expect(extensionMismatches(inputs)).toEqual([]);
		expect(
			knownTypes.filter((type) => extensionForMediaType(`${type}; charset=utf-8`) === false),
		).toEqual([]);
	});

	it('for odd spacing, bare words, unknown types, prototype names and non-strings', () => {
		const inputs = [
			...[
				'image/jpeg x',
				'image/ jpeg',
				'image',
				'application/x-unknown-thing',
				'',
				'; charset=utf-8',
			],
			...['constructor', '__proto__', 'hasOwnProperty'],
			...([undefined, null, 42, {}, ['image/jpeg']] as unknown as string[]),
		];
		expect(extensionMismatches(inputs)).toEqual([]);
		expect(inputs.slice(1).filter((input) => extensionForMediaType(input) !== false)).toEqual([]);
	});
});

describe('random inputs built from tricky pieces', () => {
	// the visible pieces, then whitespace and separators
	const pieces = [
		...'. .. / // ; " \\ : - + é 😀 k MZ x photo html json charset=utf-8 \u0130 \u212Amz'.split(
			' ',
		),
		...'jpg JPG jpeg png Png heic mp4 mov gz tar image/ video/ text/ application/'.split(' '),
		...[' ', '\t', '\n', '\u00a0', '\ufeff', '\u2028', '\u3000'],
	];

	function build(next: () => number): string {
		const count = 1 + Math.floor(next() * 6);
		let text = '';
		for (let i = 0; i < count; i++) text += pieces[Math.floor(next() * pieces.length)];
		return text;
	}

	// Media-type-like strings: some whitespace, a known type with random letter case (sometimes cut
	// short or glued to a piece), then a separator and parameters.
	function buildType(next: () => number): string {
		const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
		let type = pick(knownTypes);
		type = [...type].map((c) => (next() < 0.3 ? c.toUpperCase() : c)).join('');
		if (next() < 0.1) type = type.slice(0, Math.floor(next() * type.length));
		if (next() < 0.1) type += pick(pieces);
		const lead = pick(['', '', ' ', '\t', '\u00a0', '\ufeff', '\n', '\u200b', ';']);
		const separator = pick(['', ';', '; ', ' ;', ' ', '\t', '\u00a0', '\u3000', ',', '\u200b']);
		const parameters = pick(['', 'charset=utf-8', 'CHARSET="UTF-8"', 'q=0.9', pick(pieces)]);
		return lead + type + separator + parameters;
	}

	it('lookupMediaType and extensionForMediaType agree with mime-types on 20000 strings each', () => {
		const next = prng(20260101);
		const names = Array.from({ length: 20000 }, () => build(next));
		const types = Array.from({ length: 20000 }, () => buildType(next));
		const all = [...names, ...types];
		// the generators must reach both kinds of answer, or the comparison proves little
		expect(names.filter((input) => mime.lookup(input) !== false).length).toBeGreaterThan(1000);
		expect(names.filter((input) => mime.lookup(input) === false).length).toBeGreaterThan(1000);
		expect(types.filter((input) => mime.extension(input) !== false).length).toBeGreaterThan(5000);
		expect(types.filter((input) => mime.extension(input) === false).length).toBeGreaterThan(1000);
		expect(lookupMismatches(all)).toEqual([]);
		expect(extensionMismatches(all)).toEqual([]);
	});
});
