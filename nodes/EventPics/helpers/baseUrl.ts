export const DEFAULT_BASE_URL = 'https://api.eventpics.net';

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Normalizes the credential's Base URL (trailing slashes removed, default when empty) and refuses
 * addresses that would send the API key in clear text: http:// is accepted only for loopback hosts.
 */
export function checkBaseUrl(raw: unknown): BaseUrlCheck {
	const text = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : DEFAULT_BASE_URL;
	const url = text.replace(/\/+$/, '');
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return { ok: false, reason: `"${url}" is not a valid address. Use ${DEFAULT_BASE_URL}.` };
	}
	if (parsed.protocol === 'https:') return { ok: true, url };
	if (parsed.protocol === 'http:' && LOOPBACK_HOST.test(parsed.hostname)) return { ok: true, url };
	if (parsed.protocol === 'http:') {
		return {
			ok: false,
			reason: `"${url}" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1 or localhost).`,
		};
	}
	return { ok: false, reason: `"${url}" must start with https://.` };
}
