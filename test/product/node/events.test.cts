import { byId, fromList, runEventPics, useEmulator, GET_ALL_EVENTS } from './fixture.cts';

describe('Event and Album operations in the real engine', () => {
	const emu = useEmulator();

	it('Event > Get Many with Return All lists 150,000 events (3 MB, under the 4 MiB the node reads)', async () => {
		const events = Array.from({ length: 150_000 }, (_, i) => ({ linkId: String(100_000 + i) }));
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'badJson',
			body: JSON.stringify({ events }),
		});
		const { items, status, nodeError } = await runEventPics({
			emu,
			parameters: GET_ALL_EVENTS,
		});
		expect(nodeError?.message).toBeUndefined();
		expect(status).toBe('success');
		expect(items).toHaveLength(150_000);
		expect(items[149_999].json).toEqual({
			linkId: '249999',
			title: '249999',
			albumCount: 0,
			albums: [],
		});
	});

	it("Event > Get Many lists the key's events with their albums, both id spellings read as id", async () => {
		const { items, status } = await runEventPics({
			emu,
			parameters: GET_ALL_EVENTS,
		});
		expect(status).toBe('success');
		expect(items.map((item) => item.json)).toEqual([
			{
				linkId: 'wedding-anna-ben',
				title: "Anna & Ben's Wedding",
				albumCount: 2,
				albums: [
					{ id: 'booth', title: 'Photo booth' },
					{ id: 'ceremony', title: 'Ceremony' },
				],
			},
			{
				linkId: 'summer-party-2026',
				title: 'Summer Party 2026',
				albumCount: 2,
				albums: [
					{ id: 'sp-booth', title: 'Booth' },
					{ id: 'sp-dance', title: 'Dance floor' },
				],
			},
			{ linkId: 'office-opening', title: 'Office Opening', albumCount: 0, albums: [] },
		]);
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		const calls = emu.requests.filter((r) => r.server === 'api');
		expect(calls).toHaveLength(1);
		expect(calls[0].headers.authorization).toBe(`Bearer ${emu.apiKey}`);
	});

	it('Event > Get Many applies the limit', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: { resource: 'event', operation: 'getAll', returnAll: false, limit: 2 },
		});
		expect(items.map((item) => item.json.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
		]);
	});

	it('shows another key only its own events', async () => {
		const { items } = await runEventPics({
			emu,
			apiKey: emu.otherApiKey,
			parameters: GET_ALL_EVENTS,
		});
		expect(items.map((item) => item.json.linkId)).toEqual(['other-event']);
	});

	it('Event > Get returns one event by link ID, from either locator mode', async () => {
		for (const event of [byId('summer-party-2026'), fromList('summer-party-2026')]) {
			const { items } = await runEventPics({
				emu,
				parameters: { resource: 'event', operation: 'get', event },
			});
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				linkId: 'summer-party-2026',
				title: 'Summer Party 2026',
				albumCount: 2,
			});
		}
	});

	it('Event > Get names the field and lists the known events for an unknown link ID', async () => {
		const { nodeError, status } = await runEventPics({
			emu,
			parameters: { resource: 'event', operation: 'get', event: byId('other-event') },
		});
		expect(status).toBe('error');
		expect(nodeError?.message).toBe(
			`The event "other-event" is not one of this API key's events; its events are "Anna & Ben's Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)`,
		);
		expect(nodeError?.description).toBe(
			'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		);
	});

	it('Album > Get Many gives one item per album with its event', async () => {
		const { items } = await runEventPics({
			emu,
			parameters: {
				resource: 'album',
				operation: 'getAll',
				event: byId('summer-party-2026'),
				returnAll: true,
			},
		});
		expect(items.map((item) => item.json)).toEqual([
			{
				id: 'sp-booth',
				title: 'Booth',
				event: { linkId: 'summer-party-2026', title: 'Summer Party 2026' },
			},
			{
				id: 'sp-dance',
				title: 'Dance floor',
				event: { linkId: 'summer-party-2026', title: 'Summer Party 2026' },
			},
		]);
	});

	it('Album > Get Many of an event without albums returns nothing', async () => {
		const { items, status } = await runEventPics({
			emu,
			parameters: {
				resource: 'album',
				operation: 'getAll',
				event: byId('office-opening'),
				returnAll: true,
			},
		});
		expect(status).toBe('success');
		expect(items).toEqual([]);
	});

	it('asks the service once per execution, whatever the number of items', async () => {
		const { items } = await runEventPics({
			emu,
			inputItems: [{ json: { n: 1 } }, { json: { n: 2 } }, { json: { n: 3 } }],
			parameters: {
				resource: 'album',
				operation: 'getAll',
				event: byId('wedding-anna-ben'),
				returnAll: true,
			},
		});
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		expect(emu.requests.filter((r) => r.server === 'api')).toHaveLength(1);
	});

	it("a bad key gives a NodeApiError in the credential's words, naming no item; the service's code and message in its details", async () => {
		const { nodeError } = await runEventPics({
			emu,
			apiKey: 'ep_not_a_key',
			parameters: GET_ALL_EVENTS,
		});
		expect(nodeError?.httpCode).toBe('401');
		expect(nodeError?.message).toBe('EventPics refused the API key of the credential (401)');
		expect(nodeError?.description).toBe(
			'Open the EventPics credential, copy the key again from the EventPics app (open the event, then the API key management), paste it without spaces, and save it.',
		);
		expect(nodeError?.context?.itemIndex).toBeUndefined();
		expect((nodeError as unknown as { errorResponse: object }).errorResponse).toMatchObject({
			request: 'GET /geteventsandalbums',
			statusCode: 401,
			code: expect.stringMatching(/\S/),
			message: expect.stringMatching(/\S/),
		});
	});

	it('refuses a plain-http Base URL to another host before sending anything', async () => {
		const { nodeError } = await runEventPics({
			emu,
			baseUrl: 'http://example.com',
			parameters: GET_ALL_EVENTS,
		});
		expect(nodeError?.message).toBe(
			'The Base URL of the EventPics credential is refused: "http://example.com" uses http://, which would send the API key in clear text. Use https:// (http:// is accepted only for 127.0.0.1, localhost or [::1]).',
		);
	});
});
