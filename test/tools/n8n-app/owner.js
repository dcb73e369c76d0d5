// @ts-check
'use strict';

/** The owner account of a throw-away n8n user folder (local screenshots and browser tests only). */
const OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Screenshot-only-1',
};

/**
 * Creates the owner account through n8n's REST API on 127.0.0.1 and returns the session cookie.
 * @param {string} url
 * @returns {Promise<string>} the n8n-auth cookie value
 */
async function ownerSession(url) {
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (!response.ok) throw new Error(`owner setup: ${response.status} ${await response.text()}`);
	const cookie = (response.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('owner setup gave no n8n-auth cookie');
	return cookie.slice('n8n-auth='.length).split(';')[0];
}

module.exports = { OWNER, ownerSession };
