import type { ICredentialTestRequest, ICredentialType } from 'n8n-workflow';

import { testCredential } from './index';
import { startTinyServer } from './tiny-server';

const GOOD = 'good-key-123';

// n8n-workflow types `rules` as all-responseCode or all-responseSuccessBody, so the two kinds
// are tried with two variants of the credential type (n8n itself evaluates a mixed list too).
const CODE_RULES: ICredentialTestRequest['rules'] = [
	{ type: 'responseCode', properties: { value: 401, message: 'The API key is not valid' } },
];
const BODY_RULES: ICredentialTestRequest['rules'] = [
	{ type: 'responseSuccessBody', properties: { key: 'result.state', value: 'blocked', message: 'This account is blocked' } },
];

/** A credential type with a request test, like an API-key credential of a community node. */
function keyApi(defaultBaseUrl: string, rules = CODE_RULES): ICredentialType {
	return {
		name: 'keyApi',
		displayName: 'Key API',
		properties: [
			{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: defaultBaseUrl },
		],
		authenticate: { type: 'generic', properties: { headers: { 'X-Key': '={{$credentials.apiKey}}' } } },
		test: {
			request: { baseURL: '={{$credentials.baseUrl}}', url: '/check', qs: { probe: 1 } },
			rules,
		},
	};
}

describe('engine harness: testCredential behaves like n8n\'s credential test', () => {
	let server: Awaited<ReturnType<typeof startTinyServer>>;
	beforeAll(async () => {
		server = await startTinyServer((req) => {
			const key = req.headers['x-key'];
			if (key === GOOD) return { json: { result: { state: 'ok' } } };
			if (key === 'blocked') return { json: { result: { state: 'blocked' } } };
			if (key === 'teapot') return { status: 418, json: {} };
			if (key === 'crash') return { status: 500, json: { message: 'boom' } };
			return { status: 401, json: { message: 'unauthorised' } };
		});
	});
	afterAll(async () => server.close());
	beforeEach(() => server.requests.splice(0));

	it('OK for a good key; the request went to baseURL + url with the authenticate header', async () => {
		const result = await testCredential({ credentialType: keyApi(server.url), credentials: { apiKey: GOOD } });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].method).toBe('GET');
		expect(server.requests[0].url).toBe('/check?probe=1');
		expect(server.requests[0].headers['x-key']).toBe(GOOD);
	});

	it('the responseCode rule gives its message for a bad key; without it, the status text', async () => {
		expect(await testCredential({ credentialType: keyApi(server.url), credentials: { apiKey: 'bad' } })).toEqual({
			status: 'Error',
			message: 'The API key is not valid',
		});
		expect(await testCredential({ credentialType: keyApi(server.url, BODY_RULES), credentials: { apiKey: 'bad' } })).toEqual({
			status: 'Error',
			message: 'Unauthorized',
		});
	});

	it('the responseSuccessBody rule turns a 200 into an error', async () => {
		expect(await testCredential({ credentialType: keyApi(server.url, BODY_RULES), credentials: { apiKey: 'blocked' } })).toEqual({
			status: 'Error',
			message: 'This account is blocked',
		});
	});

	it('other status codes without a rule: n8n reports the status text', async () => {
		expect(await testCredential({ credentialType: keyApi(server.url), credentials: { apiKey: 'crash' } })).toEqual({
			status: 'Error',
			message: 'Internal Server Error',
		});
		expect(await testCredential({ credentialType: keyApi(server.url), credentials: { apiKey: 'teapot' } })).toEqual({
			status: 'Error',
			message: "I'm a Teapot",
		});
	});

	it('an unreachable base URL reports the network error code', async () => {
		const result = await testCredential({
			credentialType: 'keyApi',
			credentialTypes: { keyApi: keyApi(server.url) },
			credentials: { keyApi: { apiKey: GOOD, baseUrl: 'http://127.0.0.1:9' } },
		});
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('a credential type without a test says so', async () => {
		const { test: _omit, ...untested } = keyApi(server.url);
		expect(await testCredential({ credentialType: untested as ICredentialType, credentials: { apiKey: GOOD } })).toEqual({
			status: 'Error',
			message: 'No testing function found for this credential.',
		});
	});
});
