import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { runNode } from './index';
import { startTinyServer } from './tiny-server';

const KEY = 'k3y-0f-the-t1ny-api';

/** Generic authenticate: a header and a query parameter from $credentials; baseUrl has a default. */
function tinyKeyApi(defaultBaseUrl: string): ICredentialType {
	return {
		name: 'tinyKeyApi',
		displayName: 'Tiny Key API',
		properties: [
			{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: defaultBaseUrl },
			{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
		],
		authenticate: {
			type: 'generic',
			properties: {
				headers: { 'X-Tiny-Key': '={{$credentials.apiKey}}' },
				qs: { region: '={{$credentials.region}}' },
			},
		},
	};
}

/** Function authenticate. */
const tinyBearerApi: ICredentialType = {
	name: 'tinyBearerApi',
	displayName: 'Tiny Bearer API',
	properties: [{ displayName: 'Token', name: 'token', type: 'string', default: '' }],
	async authenticate(credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions) {
		return { ...options, headers: { ...options.headers, Authorization: `Bearer ${credentials.token as string}` } };
	},
};

/** preAuthentication: an expirable session token fetched from /login with the user's password. */
function tinySessionApi(baseUrl: string): ICredentialType {
	return {
		name: 'tinySessionApi',
		displayName: 'Tiny Session API',
		properties: [
			{ displayName: 'Password', name: 'password', type: 'string', default: '' },
			{ displayName: 'Session', name: 'sessionToken', type: 'hidden', typeOptions: { expirable: true }, default: '' },
		],
		async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
			const res = (await this.helpers.httpRequest({
				method: 'POST',
				url: `${baseUrl}/login`,
				body: { password: credentials.password },
				json: true,
			})) as { token: string };
			return { sessionToken: res.token };
		},
		authenticate: { type: 'generic', properties: { headers: { 'X-Session': '={{$credentials.sessionToken}}' } } },
	};
}

/** Throwaway node: one GET per item through httpRequestWithAuthentication with the chosen credential. */
class Caller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Caller',
		name: 'caller',
		group: ['transform'],
		version: 1,
		description: 'test',
		defaults: { name: 'Caller' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'tinyKeyApi', required: false },
			{ name: 'tinyBearerApi', required: false },
			{ name: 'tinySessionApi', required: false },
		],
		properties: [
			{ displayName: 'Credential', name: 'credential', type: 'string' as const, default: 'tinyKeyApi' },
			{ displayName: 'URL', name: 'url', type: 'string' as const, default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const credentialType = this.getNodeParameter('credential', i) as string;
			let url = this.getNodeParameter('url', i) as string;
			if (!url) url = `${(await this.getCredentials(credentialType)).baseUrl as string}/things`;
			const body = await this.helpers.httpRequestWithAuthentication.call(this, credentialType, { url, json: true });
			out.push({ json: body, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** Same node, but its key credential is required (as most nodes declare it). */
class StrictCaller extends Caller {
	description = { ...new Caller().description, name: 'strictCaller', credentials: [{ name: 'tinyKeyApi', required: true }] };
}

describe('engine harness: credentials helper applies the credential type faithfully', () => {
	let server: Awaited<ReturnType<typeof startTinyServer>>;
	let logins = 0;
	beforeAll(async () => {
		server = await startTinyServer((req) => {
			if (req.url === '/login') {
				logins++;
				return JSON.parse(req.body.toString()).password === 'pw' ? { json: { token: `session-${logins}` } } : { status: 403, json: {} };
			}
			return { json: { ok: true } };
		});
	});
	afterAll(async () => server.close());
	beforeEach(() => {
		server.requests.splice(0);
		logins = 0;
	});

	it('generic authenticate: header and query string resolved from $credentials, defaults applied', async () => {
		const result = await runNode({
			nodeType: new Caller(),
			parameters: { credential: 'tinyKeyApi' },
			credentialTypes: { tinyKeyApi: tinyKeyApi(server.url) },
			credentials: { tinyKeyApi: { apiKey: KEY } }, // baseUrl and region come from the type's defaults
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual([{ ok: true }]);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].url).toBe('/things?region=eu');
		expect(server.requests[0].headers['x-tiny-key']).toBe(KEY);
		// the key reached the server and nowhere else
		expect(result.text()).not.toContain(KEY);
		expect(result.credentialsHelper.authenticateCalls).toEqual([{ type: 'tinyKeyApi', url: `${server.url}/things` }]);
	});

	it('resolves expressions stored in credential data, as n8n does', async () => {
		await runNode({
			nodeType: new Caller(),
			parameters: { credential: 'tinyKeyApi' },
			credentialTypes: { tinyKeyApi: tinyKeyApi(server.url) },
			credentials: { tinyKeyApi: { apiKey: "={{ 'expr-' + 'key' }}", region: 'us' } },
		});
		expect(server.requests[0].headers['x-tiny-key']).toBe('expr-key');
		expect(server.requests[0].url).toBe('/things?region=us');
	});

	it('function authenticate is called', async () => {
		const result = await runNode({
			nodeType: new Caller(),
			parameters: { credential: 'tinyBearerApi', url: `${server.url}/bearer` },
			credentialTypes: { tinyBearerApi },
			credentials: { tinyBearerApi: { token: 'tok-1' } },
		});
		expect(result.error).toBeUndefined();
		expect(server.requests[0].headers.authorization).toBe('Bearer tok-1');
	});

	it('preAuthentication fills an empty expirable property once, then the token is reused', async () => {
		const result = await runNode({
			nodeType: new Caller(),
			parameters: { credential: 'tinySessionApi', url: `${server.url}/session` },
			credentialTypes: { tinySessionApi: tinySessionApi(server.url) },
			credentials: { tinySessionApi: { password: 'pw' } },
			inputItems: [{ json: {} }, { json: {} }],
		});
		expect(result.error).toBeUndefined();
		expect(server.requests.map((r) => [r.url, r.headers['x-session']])).toEqual([
			['/login', undefined],
			['/session', 'session-1'],
			['/session', 'session-1'],
		]);
	});

	it('a node without its required credential set fails with n8n\'s own message', async () => {
		const result = await runNode({
			nodeType: new StrictCaller(),
			parameters: { credential: 'tinyKeyApi', url: `${server.url}/x` },
			credentialTypes: { tinyKeyApi: tinyKeyApi(server.url) },
		});
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Node does not have any credentials set');
		expect(result.nodeError.message).toBe('Node does not have any credentials set');
		expect(server.requests).toHaveLength(0);
	});
});
