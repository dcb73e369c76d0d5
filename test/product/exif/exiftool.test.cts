/**
 * Our reading of every corpus file against exiftool's (Debian: apt-get install -y libimage-exiftool-perl).
 * exiftool is asked with -a -G1 so each value carries the IFD it came from:
 *   our DateTimeOriginal = ExifIFD:DateTimeOriginal (0x9003) with ExifIFD:OffsetTimeOriginal, ExifIFD:SubSecTimeOriginal
 *   our CreateDate       = ExifIFD:CreateDate (0x9004)       with ExifIFD:OffsetTimeDigitized, ExifIFD:SubSecTimeDigitized
 *   our DateTime         = IFD0:ModifyDate (0x0132)           with ExifIFD:OffsetTime, ExifIFD:SubSecTime
 * The first of them holding a valid date is the answer. exiftool prints the raw strings (-n); the
 * validity and formatting rules below are written here independently of the code under test.
 * Without exiftool the comparison is skipped with a warning, unless EXIF_REQUIRE_EXIFTOOL=1 (for CI).
 */
import { spawnSync } from 'child_process';

import { type ExifCaptureTime, readCaptureTime } from '../../../nodes/EventPics/helpers/exif';
import { CORPUS_DIR, CORPUS_FILES, corpusFile } from './corpus.cts';

const TAGS = [
	'DateTimeOriginal',
	'CreateDate',
	'ModifyDate',
	'OffsetTimeOriginal',
	'OffsetTimeDigitized',
	'OffsetTime',
	'SubSecTimeOriginal',
	'SubSecTimeDigitized',
	'SubSecTime',
];

const CHOICES = [
	[
		'DateTimeOriginal',
		'ExifIFD:DateTimeOriginal',
		'ExifIFD:OffsetTimeOriginal',
		'ExifIFD:SubSecTimeOriginal',
	],
	[
		'CreateDate',
		'ExifIFD:CreateDate',
		'ExifIFD:OffsetTimeDigitized',
		'ExifIFD:SubSecTimeDigitized',
	],
	['DateTime', 'IFD0:ModifyDate', 'ExifIFD:OffsetTime', 'ExifIFD:SubSecTime'],
] as const;

/**
 * Files where we differ from exiftool on purpose (see test/fixtures/exif/README.md): `sameAs` names the
 * file whose exiftool reading we must match instead; `nothing` means we must read nothing.
 */
const DIFFERENCES: Record<string, { sameAs: string } | { nothing: true }> = {
	// exiftool 12.57: "Can't currently extract Exif with construction method 1"; the EXIF came from this JPEG
	'heif-exif-in-idat.heif': { sameAs: 'jpeg-canon-subsec.jpg' },
	// exiftool inflates zTXt; our runtime code has no inflate
	'png-raw-profile-ztxt.png': { nothing: true },
	// exiftool reads text-chunk raw profiles; we read only eXIf (no writer of the corpus makes this one)
	'png-raw-profile-text.png': { nothing: true },
};

type ExiftoolRecord = Record<string, string | number | undefined>;

function validDate(raw: unknown): string | undefined {
	const m =
		typeof raw === 'string' ? /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(raw) : null;
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
	const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
	const ok =
		y > 0 &&
		date.getUTCMonth() === mo - 1 &&
		date.getUTCDate() === d &&
		date.getUTCHours() === h &&
		date.getUTCMinutes() === mi &&
		date.getUTCSeconds() === s;
	return ok ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}` : undefined;
}

/** What we should read, from exiftool's record of a file. */
function expectedFrom(record: ExiftoolRecord): ExifCaptureTime | undefined {
	for (const [tag, dateKey, offsetKey, subSecKey] of CHOICES) {
		const date = validDate(record[dateKey]);
		if (!date) continue;
		const subSec = record[subSecKey] === undefined ? '' : String(record[subSecKey]);
		const fraction = /^\d+$/.test(subSec) ? `.${(subSec + '00').slice(0, 3)}` : '';
		const offset = record[offsetKey];
		const result: ExifCaptureTime = { dateTime: date + fraction, tag };
		if (typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset)) result.offset = offset;
		return result;
	}
	return undefined;
}

const version = spawnSync('exiftool', ['-ver'], { encoding: 'utf8' });
const haveExiftool = version.status === 0;

if (!haveExiftool) {
	const why =
		'exiftool is not installed: comparison with exiftool SKIPPED (apt-get install -y libimage-exiftool-perl)';
	// The skipped test's name says why; test/summary-reporter.js lists skipped tests by name.
	if (process.env.EXIF_REQUIRE_EXIFTOOL === '1') {
		// CI sets this so that a missing exiftool fails instead of skipping
		test('exiftool is required here (EXIF_REQUIRE_EXIFTOOL=1)', () => {
			expect(version.error?.message ?? version.stderr).toBe('exiftool found');
		});
	} else {
		test.skip(why, () => {});
	}
} else {
	describe(`our reading equals exiftool ${version.stdout.trim()}'s`, () => {
		let records: Map<string, ExiftoolRecord>;

		beforeAll(() => {
			const run = spawnSync(
				'exiftool',
				['-j', '-n', '-a', '-G1', ...TAGS.map((t) => `-${t}`), ...CORPUS_FILES],
				{
					cwd: CORPUS_DIR,
					encoding: 'utf8',
				},
			);
			const list = JSON.parse(run.stdout) as Array<ExiftoolRecord & { SourceFile: string }>;
			records = new Map(list.map((record) => [record.SourceFile, record]));
		});

		test('exiftool read every corpus file and found dates in most of them', () => {
			expect([...records.keys()].sort()).toEqual(CORPUS_FILES);
			const withDates = CORPUS_FILES.filter(
				(name) => expectedFrom(records.get(name) ?? {}) !== undefined,
			);
			expect(withDates.length).toBeGreaterThanOrEqual(20);
		});

		test.each(CORPUS_FILES)('%s', (name) => {
			const difference = DIFFERENCES[name];
			const reference = difference && 'sameAs' in difference ? difference.sameAs : name;
			const expected =
				difference && 'nothing' in difference
					? undefined
					: expectedFrom(records.get(reference) ?? {});
			if (difference && 'nothing' in difference)
				expect(expectedFrom(records.get(name) ?? {})).toBeDefined();
			if (difference && 'sameAs' in difference)
				expect(expectedFrom(records.get(name) ?? {})).toBeUndefined();
			expect(readCaptureTime(corpusFile(name))).toEqual(expected);
		});
	});
}
