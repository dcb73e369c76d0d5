import {
	runEventPics,
	useEmulator,
	credentialTest,
	searchList,
	GET_ALL_EVENTS,
} from '../node/fixture.cts';

const emu = useEmulator();

/**
 * Threat: a Base URL with a user name and password sends them along (and shows the password in
 * errors); a ?query or #fragment makes the address something else than the API's. They are refused
 * before anything is sent, by the node, its dropdowns and the credential test, and the password is
 * never shown back.
 */
describe('security: a Base URL with user:password, ?query or #fragment is refused', () => {
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
				parameters: GET_ALL_EVENTS,
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
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.message).toBe(
			'The Base URL of the EventPics credential is refused: "https://…@exa mple.com" is not a valid address. Use https://api.eventpics.net.',
		);
		expect(result.text()).not.toContain(PASSWORD);
	});

	it('the Event dropdown refuses each too', async () => {
		for (const [, baseUrl, reason] of cases()) {
			const search = searchList(emu, { baseUrl });
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
			const result = await credentialTest(emu, { baseUrl });
			expect(result).toEqual({ status: 'Error', message: `The Base URL is refused: ${reason}` });
			expect(result.message).not.toContain(PASSWORD);
		}
		expect(emu.requests).toHaveLength(0);
	});
});

/**
 * One rule, one place: the node, its Event dropdown and the credential test all check the Base URL
 * with helpers/baseUrl.ts. A loopback host spelled the way only a URL parser reads as local (short,
 * decimal, uncompressed IPv6) is refused by all three alike, before anything is sent; the same host
 * written plainly is accepted by all three.
 */
describe('security: node and credential test agree on the Base URL (odd loopback spellings refused)', () => {
	const port = () => new URL(emu.baseUrl).port;
	const odd = (): Array<[string, string, string]> => [
		['short 127.1', `http://127.1:${port()}`, '127.0.0.1'],
		['decimal 2130706433', `http://2130706433:${port()}`, '127.0.0.1'],
		['uncompressed IPv6 loopback', `http://[0:0:0:0:0:0:0:1]:${port()}`, '[::1]'],
	];
	const reasonFor = (baseUrl: string, parsed: string) =>
		`"${baseUrl}" writes its host in another form than ${parsed}. For http:// write the host as 127.0.0.1, localhost or [::1] (http:// is accepted only for these).`;

	it.each([0, 1, 2])(
		'odd spelling %p: node, dropdown and credential test refuse it with the same words',
		async (index) => {
			const [, baseUrl, parsed] = odd()[index];
			const reason = reasonFor(baseUrl, parsed);
			const run = await runEventPics({
				emu,
				baseUrl,
				parameters: GET_ALL_EVENTS,
			});
			expect(run.nodeError?.message).toBe(
				`The Base URL of the EventPics credential is refused: ${reason}`,
			);
			const search = searchList(emu, { baseUrl });
			await expect(search).rejects.toThrow(reason);
			const tested = await credentialTest(emu, { baseUrl });
			expect(tested).toEqual({ status: 'Error', message: `The Base URL is refused: ${reason}` });
			expect(emu.requests).toHaveLength(0);
		},
	);

	it('the same host written plainly is accepted by the node and the credential test', async () => {
		const baseUrl = `http://127.0.0.1:${port()}`;
		const run = await runEventPics({
			emu,
			baseUrl,
			parameters: GET_ALL_EVENTS,
		});
		expect(run.nodeError).toBeUndefined();
		expect(run.items.length).toBeGreaterThan(0);
		const tested = await credentialTest(emu, { baseUrl });
		expect(tested).toEqual({ status: 'OK', message: 'Connection successful!' });
	});
});
