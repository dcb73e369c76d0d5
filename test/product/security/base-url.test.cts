import type { Emulator } from '../node/fixture.cts';
import {
	callListSearch,
	credentialTypes,
	NODE_TYPE,
	nodeTypes,
	runEventPics,
	startEmulator,
	testCredential,
} from '../node/fixture.cts';

/**
 * Threat: a Base URL with a user name and password sends them along (and shows the password in
 * errors); a ?query or #fragment makes the address something else than the API's. They are refused
 * before anything is sent, by the node, its dropdowns and the credential test, and the password is
 * never shown back.
 */
describe('security: a Base URL with user:password, ?query or #fragment is refused', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	const PASSWORD = 'hunter2-secret-pw';
	const withUser = () => emu.baseUrl.replace('http://', `http://admin:${PASSWORD}@`);

	const cases = (): Array<[string, string, string]> => [
		[
			'user:password',
			withUser(),
			`"${emu.baseUrl.replace('http://', 'http://…@')}" contains a user name or password (before "@"). Remove it: EventPics takes the API key only, in the API Key field.`,
		],
		[
			'a ?query',
			`${emu.baseUrl}?tenant=1`,
			`"${emu.baseUrl}?tenant=1" contains a ?query or #fragment. Use the address of the API alone, e.g. https://api.eventpics.net.`,
		],
		[
			'a #fragment',
			`${emu.baseUrl}#x`,
			`"${emu.baseUrl}#x" contains a ?query or #fragment. Use the address of the API alone, e.g. https://api.eventpics.net.`,
		],
	];

	it('the node refuses each, sends nothing and never shows the password', async () => {
		for (const [, baseUrl, reason] of cases()) {
			const result = await runEventPics({
				emu,
				baseUrl,
				parameters: { resource: 'event', operation: 'getAll', returnAll: true },
			});
			expect(result.nodeError?.message).toBe(
				`The Base URL of the EventPics credential is refused: ${reason}`,
			);
			expect(result.text()).not.toContain(PASSWORD);
		}
		expect(emu.requests).toHaveLength(0);
	});

	it('a password in an address that does not even parse is not shown either', async () => {
		const result = await runEventPics({
			emu,
			baseUrl: `https://admin:${PASSWORD}@exa mple.com`,
			parameters: { resource: 'event', operation: 'getAll', returnAll: true },
		});
		expect(result.nodeError?.message).toBe(
			'The Base URL of the EventPics credential is refused: "https://…@exa mple.com" is not a valid address. Use https://api.eventpics.net.',
		);
		expect(result.text()).not.toContain(PASSWORD);
	});

	it('the Event dropdown refuses each too', async () => {
		for (const [, baseUrl, reason] of cases()) {
			const search = callListSearch({
				nodeType: NODE_TYPE,
				nodeTypes,
				credentialTypes,
				credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl } },
				methodName: 'searchEvents',
				parameters: {},
			});
			await expect(search).rejects.toThrow(reason);
		}
		expect(emu.requests).toHaveLength(0);
	});

	it('the credential test refuses each with the same words before anything is sent, never showing the password', async () => {
		const https = emu.baseUrl.replace('http://', 'https://');
		const more: Array<[string, string, string]> = [
			[
				'https with user:password',
				`https://admin:${PASSWORD}@${https.slice(8)}`,
				`"${https.replace('https://', 'https://…@')}" contains a user name or password (before "@"). Remove it: EventPics takes the API key only, in the API Key field.`,
			],
			[
				'https with a ?query',
				`${https}?tenant=1`,
				`"${https}?tenant=1" contains a ?query or #fragment. Use the address of the API alone, e.g. https://api.eventpics.net.`,
			],
		];
		for (const [, baseUrl, reason] of [...cases(), ...more]) {
			const result = await testCredential({
				credentialType: 'eventPicsApi',
				credentialTypes,
				credentials: { apiKey: emu.apiKey, baseUrl },
			});
			expect(result).toEqual({ status: 'Error', message: `The Base URL is refused: ${reason}` });
			expect(result.message).not.toContain(PASSWORD);
		}
		expect(emu.requests).toHaveLength(0);
	});
});
