/**
 * Every function of the node that reads text from outside (file names, addresses, headers, dates,
 * media types, what the service answers), each given a megabyte of its worst characters. Run in a
 * child process by ../linear-time.test.ts (a super-linear case is stopped there, not waited for).
 * Each case reports the fastest of three calls, in milliseconds.
 */
import { fastestMs } from './run.cts';

const MB = 1 << 20;
const repeat = (unit: string, length = MB) => unit.repeat(Math.ceil(length / unit.length));

/** Adversarial inputs of one megabyte each. */
export const INPUTS = {
	dotsInside: `x${repeat('.')}y.jpg`,
	dotsBeforeExtension: `${repeat('.')}.jpg`,
	dotsThenName: `${repeat('.')}a`,
	spaces: ` ${repeat(' ')}x${repeat(' ')} `,
	slashesInside: `${repeat('/')}x`,
	slashesBackslashes: `${repeat('/\\')}a.jpg`,
	mixedUnicode: repeat('\u202e.\u200b /é😀\ufeff\u0000\t\u2028'),
	spacesDotsMixed: repeat('. '),
};

// Product code is required lazily, so that one missing function fails its cases only.
/* eslint-disable @typescript-eslint/no-require-imports */
const fileName = () => require('../../../../nodes/EventPics/helpers/fileName');
const baseUrl = () => require('../../../../nodes/EventPics/helpers/baseUrl');
const address = () => require('../../../../nodes/EventPics/helpers/address');
const disposition = () => require('../../../../nodes/EventPics/helpers/disposition');
const takenAt = () => require('../../../../nodes/EventPics/helpers/takenAt');
const mediaType = () => require('../../../../nodes/EventPics/helpers/mediaType');
const mediaTypeTable = () => require('../../../../nodes/EventPics/helpers/mediaTypeTable');
const sniff = () => require('../../../../nodes/EventPics/helpers/sniff');
const retryPolicy = () => require('../../../../nodes/EventPics/transport/retry');
const redact = () => require('../../../../nodes/EventPics/transport/redact');
const failures = () => require('../../../../nodes/EventPics/transport/errors');
/* eslint-enable @typescript-eslint/no-require-imports */

type Case = () => Promise<{ ms: number; [detail: string]: unknown }>;

/** A case that calls `call(input)` and reports its time and the size of what it returned. */
const timed =
	(input: () => string, call: (text: string) => unknown): Case =>
	async () => {
		const text = input();
		let result: unknown;
		const ms = fastestMs(() => (result = call(text)));
		const shown = typeof result === 'string' ? result : JSON.stringify(result ?? null);
		return { ms, inputLength: text.length, resultLength: shown.length };
	};

const byInput = (
	prefix: string,
	call: (text: string) => unknown,
	names: Array<keyof typeof INPUTS> = Object.keys(INPUTS) as Array<keyof typeof INPUTS>,
): Record<string, Case> =>
	Object.fromEntries(names.map((name) => [`${prefix}: ${name}`, timed(() => INPUTS[name], call)]));

const KEY = 'ep_live_0123456789abcdef0123';
const HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);

export const cases: Record<string, Case> = {
	...byInput('sanitizeFileName', (t) => fileName().sanitizeFileName(t)),
	...byInput('checkBaseUrl', (t) => baseUrl().checkBaseUrl(`https://api.example.com${t}`)),
	'checkBaseUrl: trailing slashes': timed(
		() => `https://api.example.com${repeat('/')}`,
		(t) => baseUrl().checkBaseUrl(t),
	),
	'checkBaseUrl: a user part of a megabyte': timed(
		() => `https://${repeat('a:')}@x.example.com`,
		(t) => baseUrl().checkBaseUrl(t),
	),
	...byInput('internalHostReason', (t) => address().internalHostReason(`a${t}b.localhost`)),
	'internalHostReason: a host of labels': timed(
		() => repeat('a.'),
		(t) => address().internalHostReason(t),
	),
	...byInput('fileNameFromDisposition', (t) =>
		disposition().fileNameFromDisposition(`attachment; filename="${t}"`),
	),
	'fileNameFromDisposition: filename*= repeated, no quote': timed(
		() => `attachment; ${repeat('filename*=a')}`,
		(t) => disposition().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: filename=" repeated, never closed': timed(
		() => `attachment; ${repeat('filename="')}`,
		(t) => disposition().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: backslashes in quotes': timed(
		() => `attachment; filename="${repeat('\\"')}"`,
		(t) => disposition().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: percent signs': timed(
		() => `attachment; filename*=UTF-8''${repeat('%')}`,
		(t) => disposition().fileNameFromDisposition(t),
	),
	...byInput('parseTakenAt', (t) =>
		takenAt().parseTakenAt(`2026-06-20T18:30${t}`, 'Europe/Berlin'),
	),
	'parseTakenAt: digits': timed(
		() => repeat('1'),
		(t) => takenAt().parseTakenAt(t, 'Europe/Berlin'),
	),
	'parseTakenAt: digits with a fraction and a letter': timed(
		() => `1.${repeat('1')}x`,
		(t) => takenAt().parseTakenAt(t, 'Europe/Berlin'),
	),
	...byInput('parseRetryAfter', (t) => retryPolicy().parseRetryAfter(`1${t}`, Date.now()), [
		'spaces',
		'mixedUnicode',
	]),
	'parseRetryAfter: digits then a letter': timed(
		() => `${repeat('1')}x`,
		(t) => retryPolicy().parseRetryAfter(t, Date.now()),
	),
	...byInput('decideType (the binary MIME type)', (t) =>
		mediaType().decideType('photo', `image/${t}`, HEAD, { allowUnknown: false, allowOther: false }),
	),
	...byInput('lookupMediaType', (t) => mediaTypeTable().lookupMediaType(t)),
	...byInput('extensionForMediaType', (t) => mediaTypeTable().extensionForMediaType(t)),
	...byInput(
		'mimeTypeMismatch',
		(t) => sniff().mimeTypeMismatch(`image/${t}`, 'image/jpeg', 'a.jpg'),
		['spaces', 'mixedUnicode', 'slashesInside'],
	),
	'redact: a megabyte of near-copies of the key': timed(
		() => repeat(`${KEY.slice(0, -1)}-`),
		(t) => redact().redact(t, KEY),
	),
	'redact: a megabyte of one character': timed(
		() => repeat('e'),
		(t) => redact().redact(t, 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeex'),
	),
	'the S3 error of a PUT answer: <Code> repeated, never closed': timed(
		() => repeat('<Code>a'),
		(t) => failures().httpFailure('put', { statusCode: 400, headers: {}, body: t }),
	),
};
