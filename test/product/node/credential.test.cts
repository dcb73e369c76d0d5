import { credentialTypes, NODE_TYPE, nodeTypes, useEmulator, credentialTest } from './fixture.cts';

describe('EventPics API credential: Test connection', () => {
	const emu = useEmulator();

	it('accepts a good key and sends it as a Bearer header to GET /geteventsandalbums', async () => {
		expect(await credentialTest(emu)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const request = emu.requests.find((r) => r.server === 'api');
		expect(request).toMatchObject({ method: 'GET', url: '/geteventsandalbums', status: 200 });
		expect(request!.headers.authorization).toBe(`Bearer ${emu.apiKey}`);
	});

	it('tolerates a trailing slash in the Base URL', async () => {
		expect(await credentialTest(emu, { baseUrl: `${emu.baseUrl}/` })).toMatchObject({
			status: 'OK',
		});
	});

	it('says clearly that a bad key was refused', async () => {
		expect(await credentialTest(emu, { apiKey: 'ep_wrong_key' })).toEqual({
			status: 'Error',
			message:
				'EventPics refused the API key of the credential (401). Copy the key again from the EventPics app (open the event, then the API key management) and paste it without spaces.',
		});
	});

	it.each(['http://example.com', 'http://localhost.example.com', 'http://10.0.0.8:8787'])(
		'never sends the key over plain http to a non-loopback host, and says so in words (%s)',
		async (baseUrl) => {
			emu.reset();
			expect(await credentialTest(emu, { baseUrl })).toEqual({
				status: 'Error',
				message: `The Base URL is refused: "${baseUrl}" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1, localhost or [::1]).`,
			});
			expect(emu.requests).toHaveLength(0);
		},
	);

	it('an address without https:// in front is refused in words, with the fix', async () => {
		expect(await credentialTest(emu, { baseUrl: 'api.eventpics.net' })).toEqual({
			status: 'Error',
			message:
				'The Base URL is refused: "api.eventpics.net" does not start with https://. Add it in front: https://api.eventpics.net',
		});
	});

	it('an address where nothing listens says so in words, not ECONNREFUSED', async () => {
		// a port that was just free: nothing listens there
		const net = await import('node:net');
		const server = net.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		await new Promise<void>((resolve) => server.close(() => resolve()));
		expect(await credentialTest(emu, { baseUrl: `http://127.0.0.1:${port}` })).toEqual({
			status: 'Error',
			message: `Nothing answers at 127.0.0.1:${port}: the connection was refused. Check the Base URL. EventPics itself is at https://api.eventpics.net.`,
		});
	});

	it('a server that answers, but not in HTTP, is named by what Node.js said, not as "no answer"', async () => {
		const net = await import('node:net');
		const server = net.createServer((socket) =>
			socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nBad Header\r\n\r\n')),
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		try {
			expect(await credentialTest(emu, { baseUrl: `http://127.0.0.1:${port}` })).toEqual({
				status: 'Error',
				message: `The test request to 127.0.0.1:${port} failed: Parse Error: Invalid header token (HPE_INVALID_HEADER_TOKEN)`,
			});
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it('a 200 that is not an EventPics events list is not "Connection successful!"', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'badJson', times: 1 });
		expect(await credentialTest(emu)).toEqual({
			status: 'Error',
			message:
				'The Base URL answered 200, but not with an EventPics events list. EventPics itself is at https://api.eventpics.net.',
		});
	});

	it('the credential type has no declarative test: the node tests it (testedBy), which n8n and its editor accept', () => {
		expect((credentialTypes.eventPicsApi as { test?: unknown }).test).toBeUndefined();
		const declared = nodeTypes[NODE_TYPE].description.credentials;
		expect(declared).toEqual([
			{ name: 'eventPicsApi', required: true, testedBy: 'eventPicsApiTest' },
		]);
		expect(typeof nodeTypes[NODE_TYPE].methods.credentialTest.eventPicsApiTest).toBe('function');
	});

	it('defaults to the production address', () => {
		const baseUrl = credentialTypes.eventPicsApi.properties.find((p) => p.name === 'baseUrl');
		expect(baseUrl?.default).toBe('https://api.eventpics.net');
		const apiKey = credentialTypes.eventPicsApi.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
	});
});
