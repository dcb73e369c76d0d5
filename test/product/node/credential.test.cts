import type { Emulator } from './fixture.cts';
import { credentialTypes, startEmulator, testCredential } from './fixture.cts';

describe('EventPics API credential: Test connection', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());

	const test = async (data: { apiKey: string; baseUrl?: string }) =>
		(await testCredential({ credentialType: 'eventPicsApi', credentialTypes, credentials: data })) as {
			status: string;
			message: string;
		};

	it('accepts a good key and sends it as a Bearer header to GET /geteventsandalbums', async () => {
		emu.reset();
		expect(await test({ apiKey: emu.apiKey, baseUrl: emu.baseUrl })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const request = emu.requests.find((r) => r.server === 'api');
		expect(request).toMatchObject({ method: 'GET', url: '/geteventsandalbums', status: 200 });
		expect(request!.headers.authorization).toBe(`Bearer ${emu.apiKey}`);
	});

	it('tolerates a trailing slash in the Base URL', async () => {
		expect(await test({ apiKey: emu.apiKey, baseUrl: `${emu.baseUrl}/` })).toMatchObject({ status: 'OK' });
	});

	it('says clearly that a bad key was refused', async () => {
		expect(await test({ apiKey: 'ep_wrong_key', baseUrl: emu.baseUrl })).toEqual({
			status: 'Error',
			message:
				'EventPics refused the API key (401). Copy the key again from the EventPics app (open the event, then the API key management) and paste it without spaces.',
		});
	});

	it.each(['http://example.com', 'http://localhost.example.com', 'http://10.0.0.8:8787'])(
		'never sends the key over plain http to a non-loopback host (%s)',
		async (baseUrl) => {
			emu.reset();
			// n8n shows the request's own error: the test's address is emptied before anything is sent
			expect(await test({ apiKey: emu.apiKey, baseUrl })).toEqual({ status: 'Error', message: 'Invalid URL' });
			expect(emu.requests).toHaveLength(0);
		},
	);

	it('defaults to the production address', () => {
		const baseUrl = credentialTypes.eventPicsApi.properties.find((p) => p.name === 'baseUrl');
		expect(baseUrl?.default).toBe('https://api.eventpics.net');
		const apiKey = credentialTypes.eventPicsApi.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
	});
});
