import { byId, NODE_TYPE, nodeTypes, useEmulator, searchList } from './fixture.cts';

describe("dropdowns (list search) through n8n-core's LoadOptionsContext", () => {
	const emu = useEmulator();

	const search = async (methodName: string, parameters: object, filter?: string, apiKey?: string) =>
		await searchList(emu, { methodName, parameters, filter, apiKey: apiKey ?? emu.apiKey });

	it('lists events by title with the link ID as value', async () => {
		expect(await search('searchEvents', { resource: 'photo', operation: 'upload' })).toEqual({
			results: [
				{ name: "Anna & Ben's Wedding", value: 'wedding-anna-ben' },
				{ name: 'Summer Party 2026', value: 'summer-party-2026' },
				{ name: 'Office Opening', value: 'office-opening' },
			],
		});
	});

	it('filters events by title or link ID, ignoring case', async () => {
		expect(await search('searchEvents', {}, 'PARTY')).toEqual({
			results: [{ name: 'Summer Party 2026', value: 'summer-party-2026' }],
		});
		expect(await search('searchEvents', {}, 'office-op')).toEqual({
			results: [{ name: 'Office Opening', value: 'office-opening' }],
		});
	});

	const noAlbum = { name: 'No album (upload into the event itself)', value: '' };

	it('lists only the albums of the chosen event (both id spellings), after an entry that empties the field', async () => {
		const parameters = { resource: 'photo', operation: 'upload', event: byId('summer-party-2026') };
		expect(await search('searchAlbums', parameters)).toEqual({
			results: [
				noAlbum,
				{ name: 'Booth', value: 'sp-booth' },
				{ name: 'Dance floor', value: 'sp-dance' },
			],
		});
		expect(
			await search('searchAlbums', { ...parameters, event: byId('wedding-anna-ben') }),
		).toEqual({
			results: [
				noAlbum,
				{ name: 'Photo booth', value: 'booth' },
				{ name: 'Ceremony', value: 'ceremony' },
			],
		});
		expect(
			await search('searchAlbums', { ...parameters, event: byId('wedding-anna-ben') }, 'cere'),
		).toEqual({
			results: [{ name: 'Ceremony', value: 'ceremony' }],
		});
	});

	it('follows the event: a stale album of the previous event is not offered, even when searched for', async () => {
		const stale = { __rl: true, mode: 'list', value: 'booth', cachedResultName: 'Photo booth' };
		const parameters = {
			resource: 'photo',
			operation: 'upload',
			event: byId('summer-party-2026'),
			album: stale,
		};
		expect(await search('searchAlbums', parameters, 'photo')).toEqual({ results: [] });
		expect(
			(await search('searchAlbums', parameters)).results.map((r: { value: string }) => r.value),
		).toEqual(['', 'sp-booth', 'sp-dance']);
	});

	it('tells that an event has no albums, with an entry that leaves the field empty', async () => {
		const parameters = { resource: 'photo', operation: 'upload', event: byId('office-opening') };
		expect(await search('searchAlbums', parameters)).toEqual({
			results: [{ name: 'This event has no albums: leave Album empty', value: '' }],
		});
	});

	// issue 30: the editor empties a dependent field whenever what it depends on resolves
	// differently, expressions included; the title the list stored changes only when the user picks
	const albumFields = () =>
		nodeTypes[NODE_TYPE].description.properties.filter((p) => p.name === 'album');
	it("the node's Album asks the editor to empty it when another event is picked from the list", () => {
		const albums = albumFields().filter((album) => !album.displayOptions?.show?.['@tool']);
		expect(albums.length).toBeGreaterThan(0);
		for (const album of albums)
			expect(album.typeOptions?.loadOptionsDependsOn).toEqual(['event.cachedResultName']);
	});

	it("the tool's Album depends on no field, so the editor never empties its $fromAI()", () => {
		const albums = albumFields().filter((album) => album.displayOptions?.show?.['@tool']);
		expect(albums.length).toBeGreaterThan(0);
		for (const album of albums) {
			expect(album.default).toEqual(
				expect.objectContaining({ value: expect.stringContaining("$fromAI('albumId'") }),
			);
			expect(album.typeOptions?.loadOptionsDependsOn).toBeUndefined();
		}
	});

	it("names an unknown event and the key's events by title and id", async () => {
		await expect(search('searchAlbums', { event: byId('gone') })).rejects.toThrow(
			'The event "gone" is not one of this API key\'s events; its events are "Anna & Ben\'s Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)',
		);
	});

	it('asks for the event first when none is chosen', async () => {
		await expect(
			search('searchAlbums', { resource: 'photo', operation: 'upload' }),
		).rejects.toThrow('Choose the event first: the albums are those of the event');
	});

	it("says that the credential's API key was refused, and how to fix it, in both dropdowns", async () => {
		for (const [method, parameters] of [
			['searchEvents', {}],
			['searchAlbums', { event: byId('wedding-anna-ben') }],
		] as const) {
			const error = await search(method, parameters, undefined, 'ep_bad').then(
				() => undefined,
				(e: { message: string; description?: string }) => e,
			);
			// the editor shows "401 - " before it (test:editor): the code is not repeated
			expect(error?.message).toBe('EventPics refused the API key of the credential');
			expect(error).toMatchObject({ httpCode: '401' });
			expect(error?.description).toBe(
				'Open the EventPics credential, copy the key again from the EventPics app (open the event, then the API key management), paste it without spaces, and save it.',
			);
			expect(JSON.stringify(error)).not.toContain('ep_bad');
		}
	});
});
