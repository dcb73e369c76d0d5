import { shown as quoted, trimRuns } from './text';

export const DEFAULT_BASE_URL = 'https://api.eventpics.net';

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

/** Longest Base URL taken (the API's own is 25 characters). */
const MAX_BASE_URL_LENGTH = 2048;

/** The address as it may be shown: whatever stands before an "@" of the authority (user:password) hidden. */
const shownBaseUrl = (text: string) => text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@]*@/i, '$1…@');

const refuse = (reason: string) => ({ ok: false as const, reason });

/**
 * Whether the host is written as the URL parser reads it, then nothing or a port: "127.1" or
 * "2130706433" are loopback too, but one only a parser sees as local is not trusted over http://.
 */
function writtenAsParsed(url: string, hostname: string): boolean {
	const authority = url
		.slice(url.indexOf('//') + 2)
		.split('/')[0]
		.toLowerCase();
	const port = authority.slice(hostname.length);
	return authority.startsWith(hostname) && (port === '' || /^:\d{1,5}$/.test(port));
}

/**
 * The credential's Base URL without trailing slashes (default when empty), or why it is refused:
 * http:// only for 127.x.x.x, localhost or [::1]; no user info, ?query or #fragment. Never shows a password.
 */
export function checkBaseUrl(
	raw: unknown,
): { ok: true; url: string } | { ok: false; reason: string } {
	const text = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : DEFAULT_BASE_URL;
	const url = trimRuns(text, '/', false);
	if (url.length > MAX_BASE_URL_LENGTH)
		return refuse(
			`"${quoted(shownBaseUrl(url.slice(0, 100)))}…" is longer than ${MAX_BASE_URL_LENGTH} characters. Use ${DEFAULT_BASE_URL}.`,
		);
	const shown = shownBaseUrl(url);
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
		const written = url.includes('@') ? '…' : quoted(url);
		return refuse(`"${written}" does not start with https://. Add it in front: https://${written}`);
	}
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return refuse(`"${quoted(shown)}" is not a valid address. Use ${DEFAULT_BASE_URL}.`);
	}
	if (parsed.username !== '' || parsed.password !== '' || shown !== url)
		return refuse(
			`"${quoted(shown)}" contains a user name or password (before "@"). Remove it: EventPics takes the API key only, in the API Key field.`,
		);
	if (url.includes('?') || url.includes('#'))
		return refuse(
			`"${quoted(shown)}" contains a ?query or #fragment. Use the address of the API alone, e.g. ${DEFAULT_BASE_URL}.`,
		);
	if (parsed.protocol === 'https:') return { ok: true, url };
	if (parsed.protocol !== 'http:') return refuse(`"${quoted(url)}" must start with https://.`);
	if (!LOOPBACK_HOST.test(parsed.hostname))
		return refuse(
			`"${quoted(url)}" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1, localhost or [::1]).`,
		);
	if (writtenAsParsed(url, parsed.hostname)) return { ok: true, url };
	return refuse(
		`"${quoted(url)}" writes its host in another form than ${parsed.hostname}. For http:// write the host as 127.0.0.1, localhost or [::1] (http:// is accepted only for these).`,
	);
}
