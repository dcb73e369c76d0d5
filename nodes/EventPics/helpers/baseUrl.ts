import { shown as quoted, trimRuns } from './text';

export const DEFAULT_BASE_URL = 'https://api.eventpics.net';

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

/** Longest Base URL taken (the API's own is 25 characters). */
export const MAX_BASE_URL_LENGTH = 2048;

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** The address as it may be shown: whatever stands before an "@" of the authority (user:password) hidden. */
function shownBaseUrl(text: string): string {
	return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@]*@/i, '$1…@');
}

/**
 * Normalizes the credential's Base URL (trailing slashes removed, default when empty) and refuses
 * addresses that would expose the API key: http:// is accepted only for loopback hosts; a user name
 * and password, a ?query or a #fragment are refused (the API takes none). A refusal never shows the
 * password.
 */
export function checkBaseUrl(raw: unknown): BaseUrlCheck {
	const text = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : DEFAULT_BASE_URL;
	const url = trimRuns(text, '/', false);
	if (url.length > MAX_BASE_URL_LENGTH) {
		return {
			ok: false,
			reason: `"${quoted(shownBaseUrl(url.slice(0, 100)))}…" is longer than ${MAX_BASE_URL_LENGTH} characters. Use ${DEFAULT_BASE_URL}.`,
		};
	}
	const shown = shownBaseUrl(url);
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return {
			ok: false,
			reason: `"${quoted(shown)}" is not a valid address. Use ${DEFAULT_BASE_URL}.`,
		};
	}
	if (parsed.username !== '' || parsed.password !== '' || shown !== url) {
		return {
			ok: false,
			reason: `"${quoted(shown)}" contains a user name or password (before "@"). Remove it: EventPics takes the API key only, in the API Key field.`,
		};
	}
	if (url.includes('?') || url.includes('#')) {
		return {
			ok: false,
			reason: `"${quoted(shown)}" contains a ?query or #fragment. Use the address of the API alone, e.g. ${DEFAULT_BASE_URL}.`,
		};
	}
	if (parsed.protocol === 'https:') return { ok: true, url };
	if (parsed.protocol === 'http:' && LOOPBACK_HOST.test(parsed.hostname)) return { ok: true, url };
	if (parsed.protocol === 'http:') {
		return {
			ok: false,
			reason: `"${quoted(url)}" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1 or localhost).`,
		};
	}
	return { ok: false, reason: `"${quoted(url)}" must start with https://.` };
}
