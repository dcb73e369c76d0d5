// @ts-check
'use strict';

/**
 * What the night asks of a running n8n through its REST API, as the editor does: the owner's
 * session (the account is made on the first start of a user folder, logged into after a restart),
 * a credential and a published workflow (the editor's Save and Publish: a workflow's triggers
 * start at once, no CLI command and no restart needed), and how many executions run now.
 */

const { OWNER, ownerSession } = require('../n8n-app/owner');
const { publishThroughRest } = require('../n8n-app/n8n');

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
		// a guard: an n8n whose event loop is stuck answers nothing
		signal: AbortSignal.timeout(60_000),
	});
	if (!response.ok)
		throw new Error(`GET /rest/executions: ${response.status} ${await response.text()}`);
	const { data } = /** @type {any} */ (await response.json());
	return Array.isArray(data?.results) ? data.results.length : Number(data?.count ?? 0);
}

/**
 * Creates a credential as the editor's credential dialog does; returns its id.
 * @param {string} url
 * @param {string} cookie
 * @param {{ name: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<string>}
 */
async function createCredential(url, cookie, credential) {
	const response = await fetch(`${url}/rest/credentials`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Cookie: `n8n-auth=${cookie}` },
		body: JSON.stringify(credential),
	});
	if (!response.ok)
		throw new Error(`POST /rest/credentials: ${response.status} ${await response.text()}`);
	const { data } = /** @type {any} */ (await response.json());
	return String(data.id);
}

/**
 * Saves and publishes a workflow with `credential` (of type `type`) on every node of this package,
 * as a user picks it after importing an example (the examples name none); returns the id n8n gave
 * the workflow.
 * @param {string} url
 * @param {string} cookie
 * @param {any} workflow
 * @param {{ type: string, id: string, name: string }} credential
 * @returns {Promise<string>}
 */
async function publish(url, cookie, workflow, credential) {
	const nodes = workflow.nodes.map((/** @type {any} */ node) =>
		node.type.startsWith('n8n-nodes-eventpics.')
			? {
					...node,
					credentials: { [credential.type]: { id: credential.id, name: credential.name } },
				}
			: node,
	);
	return await publishThroughRest(url, cookie, { ...workflow, nodes });
}

module.exports = { session, runningExecutions, createCredential, publish };
