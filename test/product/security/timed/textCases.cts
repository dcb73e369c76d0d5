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
const takenAt = () => require('../../../../nodes/EventPics/helpers/takenAt');
const media = () => require('../../../../nodes/EventPics/helpers/media');
const events = () => require('../../../../nodes/EventPics/helpers/events');
const redaction = () => require('../../../../nodes/EventPics/helpers/redact');
const errors = () => require('../../../../nodes/EventPics/helpers/errors');
const request = () => require('../../../../nodes/EventPics/transport/request');
/* eslint-enable @typescript-eslint/no-require-imports */

type Case = () => Promise<{ ms: number; [detail: string]: unknown }>;

/** A case that calls `call(input)` and reports its time and the size of what it returned. */
const timed =
	<T,>(input: () => T, call: (value: T) => unknown): Case =>
	async () => {
		const value = input();
		let result: unknown;
		const ms = fastestMs(() => (result = call(value)));
		const shown = typeof result === 'string' ? result : JSON.stringify(result ?? null);
		return { ms, inputLength: String(value).length, resultLength: shown.length };
	};

type InputName = keyof typeof INPUTS;
const ALL = Object.keys(INPUTS) as InputName[];

/** One case per input (all, or `names`), each input made ready (outside the time) by `prepare`. */
const byInput = <T = string,>(
	prefix: string,
	call: (value: T) => unknown,
	names: InputName[] = ALL,
	prepare: (text: string) => T = (text) => text as T,
): Record<string, Case> =>
	Object.fromEntries(
		names.map((name) => [`${prefix}: ${name}`, timed(() => prepare(INPUTS[name]), call)]),
	);

/** The first bytes the node looks at of a file: its first MiB (actions/photo/file.ts). */
const head = (bytes: Buffer) => bytes.subarray(0, MB);

const KEY = 'ep_live_0123456789abcdef0123';
const HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);

/** The error a user sees of an answer whose message (and details) the service filled with `text`. */
const wordsOfAnswer = (text: string) => {
	const error = request().statusError(
		'put',
		400,
		{},
		{ code: text, message: text, details: { text } },
	);
	return {
		...errors().wordsOf(error, KEY),
		details: redaction().redactDetails(error.facts.said.details, 4000, KEY),
	};
};

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
		fileName().fileNameFromDisposition(`attachment; filename="${t}"`),
	),
	'fileNameFromDisposition: filename*= repeated, no quote': timed(
		() => `attachment; ${repeat('filename*=a')}`,
		(t) => fileName().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: filename=" repeated, never closed': timed(
		() => `attachment; ${repeat('filename="')}`,
		(t) => fileName().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: backslashes in quotes': timed(
		() => `attachment; filename="${repeat('\\"')}"`,
		(t) => fileName().fileNameFromDisposition(t),
	),
	'fileNameFromDisposition: percent signs': timed(
		() => `attachment; filename*=UTF-8''${repeat('%')}`,
		(t) => fileName().fileNameFromDisposition(t),
	),
	...byInput(
		'fileNameFromUrl',
		(url: URL) => fileName().fileNameFromUrl(url),
		['dotsInside', 'slashesInside', 'mixedUnicode'],
		(t) => new URL(`https://x.test/${t}`),
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
	...byInput('retryAfterMs', (t) => request().retryAfterMs(`1${t}`, Date.now()), [
		'spaces',
		'mixedUnicode',
	]),
	'retryAfterMs: digits then a letter': timed(
		() => `${repeat('1')}x`,
		(t) => request().retryAfterMs(t, Date.now()),
	),
	...byInput('decideType (the binary MIME type)', (t) =>
		media().decideType('photo', `image/${t}`, HEAD, { allowUnknown: false, allowOther: false }),
	),
	...byInput('decideType (the file name)', (t) =>
		media().decideType(t, undefined, HEAD, { allowUnknown: true, allowOther: false }),
	),
	...byInput(
		'decideType (a head of text)',
		(bytes: Buffer) =>
			media().decideType('photo.jpg', 'image/jpeg', bytes, {
				allowUnknown: false,
				allowOther: false,
			}),
		ALL,
		(t) => head(Buffer.from(t)),
	),
	...byInput(
		'sniffText (UTF-8)',
		(bytes: Buffer) => media().sniffText(bytes),
		ALL,
		(t) => head(Buffer.from(t)),
	),
	...byInput(
		'sniffText (UTF-16)',
		(bytes: Buffer) => media().sniffText(bytes),
		ALL,
		(t) => head(Buffer.from(t, 'utf16le')),
	),
	...byInput('lookupMediaType', (t) => media().lookupMediaType(t)),
	...byInput('extensionForMediaType', (t) => media().extensionForMediaType(t)),
	...byInput('parseEvents (a title, an album id)', (t) =>
		events().parseEvents({ events: [{ linkId: 'a', title: t, albums: [{ id: t, title: t }] }] }),
	),
	...byInput('searchMatcher', (t) => events().searchMatcher(t.slice(0, 1000))(t, t), [
		'dotsInside',
		'mixedUnicode',
	]),
	...byInput('named (an id)', (t) => events().named(t, t)),
	'redact: a megabyte of near-copies of the key': timed(
		() => repeat(`${KEY.slice(0, -1)}-`),
		(t) => redaction().redact(t, KEY),
	),
	'redact: a megabyte of one character': timed(
		() => repeat('e'),
		(t) => redaction().redact(t, 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeex'),
	),
	'the error of an answer whose code, message and details are a megabyte of near-copies of the key':
		timed(() => repeat(`${KEY.slice(0, -1)}-`), wordsOfAnswer),
	...byInput('the error of an answer that says', wordsOfAnswer, ['mixedUnicode', 'spaces']),
	'the S3 error of a PUT answer: <Code> repeated, never closed': timed(
		() => repeat('<Code>a'),
		(t) => request().statusError('put', 400, {}, t),
	),
};
