/** What we read from every corpus file (see test/fixtures/exif/README.md), without needing exiftool. */
import { type ExifCaptureTime, readCaptureTime } from '../../../nodes/EventPics/helpers/exif';
import { CORPUS_FILES, corpusFile, embedded } from './corpus.cts';

const DTO = 'DateTimeOriginal';
const EXPECTED: Record<string, ExifCaptureTime | undefined> = {
	'arw-like.arw': { dateTime: '2007-07-07T07:07:07.500', tag: DTO },
	'avif-from-jpeg.avif': { dateTime: '2021-03-28T01:30:00', offset: '-02:30', tag: DTO },
	'corrupt-entry-count.jpg': undefined,
	'corrupt-exif-ifd-cycle.jpg': { dateTime: '2013-03-03T03:03:03', tag: 'DateTime' },
	'corrupt-ifd0-offset.jpg': undefined,
	'corrupt-tiff-next-ifd-cycle.tif': {
		dateTime: '2011-01-02T03:04:05.999',
		offset: '+00:00',
		tag: DTO,
	},
	'dng-like.dng': { dateTime: '2009-09-09T09:09:09', offset: '+08:00', tag: DTO },
	'empty.jpg': undefined,
	'heic-exiftool.heic': { dateTime: '2006-06-06T06:06:06.123', offset: '+09:30', tag: DTO },
	'heic-libheif-from-jpeg.heic': {
		dateTime: '2023-06-30T23:59:58.042',
		offset: '+02:00',
		tag: DTO,
	},
	'heic-no-exif.heic': undefined,
	'heif-exif-in-idat.heif': { dateTime: '2022-12-31T23:59:59.120', tag: DTO },
	'jpeg-blank-dates.jpg': undefined,
	'jpeg-canon-subsec.jpg': { dateTime: '2022-12-31T23:59:59.120', tag: DTO },
	'jpeg-createdate-only.jpg': {
		dateTime: '2017-11-12T13:14:15.250',
		offset: '-03:30',
		tag: 'CreateDate',
	},
	'jpeg-dto-only-ii.jpg': { dateTime: '2019-07-14T10:20:30', tag: DTO },
	'jpeg-exif-after-other-segments.jpg': {
		dateTime: '2016-05-04T03:02:01',
		offset: '+05:45',
		tag: DTO,
	},
	'jpeg-ifd0-datetime-only-mm.jpg': {
		dateTime: '2018-02-03T04:05:06.500',
		offset: '+01:00',
		tag: 'DateTime',
	},
	'jpeg-impossible-dates-fall-back.jpg': { dateTime: '2014-04-04T04:04:04', tag: 'DateTime' },
	'jpeg-nikon-negative-offset-mm.jpg': {
		dateTime: '2021-03-28T01:30:00',
		offset: '-02:30',
		tag: DTO,
	},
	'jpeg-no-exif.jpg': undefined,
	'jpeg-phone-all-tags.jpg': { dateTime: '2023-06-30T23:59:58.042', offset: '+02:00', tag: DTO },
	'jpeg-zero-dto-falls-back.jpg': { dateTime: '2015-08-09T10:11:12', tag: 'CreateDate' },
	'nef-like.nef': { dateTime: '2008-08-08T08:08:08', tag: DTO },
	'png-exif-exiftool.png': { dateTime: '2005-05-05T05:05:05', offset: '-07:00', tag: DTO },
	'png-exif-imagemagick.png': {
		dateTime: '2017-11-12T13:14:15.250',
		offset: '-03:30',
		tag: 'CreateDate',
	},
	'png-no-exif.png': undefined,
	'png-raw-profile-text.png': undefined,
	'png-raw-profile-ztxt.png': undefined,
	'tiff-ii.tif': { dateTime: '2011-01-02T03:04:05.999', offset: '+00:00', tag: DTO },
	'tiff-imagemagick-no-exif.tif': undefined,
	'tiff-mm.tif': { dateTime: '2010-10-10T09:09:09', offset: '+10:00', tag: 'CreateDate' },
	'truncated-in-exif.jpg': undefined,
	'truncated-in-image-data.jpg': { dateTime: '2022-12-31T23:59:59.120', tag: DTO },
};

test('the table names every corpus file, and the corpus stays small', () => {
	expect(Object.keys(EXPECTED).sort()).toEqual(CORPUS_FILES);
	const total = CORPUS_FILES.reduce((sum, name) => sum + corpusFile(name).length, 0);
	expect(total).toBeLessThan(100 * 1024);
});

test.each(CORPUS_FILES)('%s, alone and as a view inside a larger buffer', (name) => {
	const bytes = corpusFile(name);
	expect(readCaptureTime(bytes)).toEqual(EXPECTED[name]);
	expect(readCaptureTime(embedded(bytes))).toEqual(EXPECTED[name]);
});
