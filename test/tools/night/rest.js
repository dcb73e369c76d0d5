// @ts-check
'use strict';

/**
 * The two questions the night asks a running n8n through its REST API, as the editor's executions
 * list does: the owner's session (the account is made on the first start of a user folder, logged
 * into after a restart), and how many executions run now.
 */

const { OWNER, ownerSession } = require('../n8n-app/owner');

/**
 * The n8n-auth cookie: the owner account is made when the user folder has none yet, else logged in.
 * @param {string} url
 * @returns {Promise<string>}
 */
async function session(url) {
	const setup = await fetch(`${url}/rest/settings`);
	const settings = /** @type {any} */ (await setup.json());
	if (settings.data?.userManagement?.showSetupOnFirstLoad !== false) return await ownerSession(url);
	const response = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (!response.ok) throw new Error(`login: ${response.status} ${await response.text()}`);
	const cookie = (response.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('login gave no n8n-auth cookie');
	return cookie.slice('n8n-auth='.length).split(';')[0];
}

/**
 * How many executions are running or about to (n8n's own list, statuses new and running).
 * @param {string} url
 * @param {string} cookie
 * @returns {Promise<number>}
 */
async function runningExecutions(url, cookie) {
	const filter = encodeURIComponent(JSON.stringify({ status: ['new', 'running'] }));
	const response = await fetch(`${url}/rest/executions?filter=${filter}&limit=100`, {
		headers: { Cookie: `n8n-auth=${cookie}` },
	});
	if (!response.ok)
		throw new Error(`GET /rest/executions: ${response.status} ${await response.text()}`);
	const { data } = /** @type {any} */ (await response.json());
	return Array.isArray(data?.results) ? data.results.length : Number(data?.count ?? 0);
}

module.exports = { session, runningExecutions };
