import type { Emulator } from './fixture';
import { byId, callListSearch, credentialTypes, NODE_TYPE, nodeTypes, startEmulator } from './fixture';

describe('dropdowns (list search) through n8n-core\'s LoadOptionsContext', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());

	const search = async (methodName: string, parameters: object, filter?: string, apiKey?: string) =>
		await callListSearch({
			nodeType: NODE_TYPE,
			nodeTypes,
			credentialTypes,
			credentials: { eventPicsApi: { apiKey: apiKey ?? emu.apiKey, baseUrl: emu.baseUrl } },
			methodName,
			parameters,
			filter,
		});

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

	it('lists the albums of the chosen event (both id spellings)', async () => {
		const parameters = { resource: 'photo', operation: 'upload', event: byId('summer-party-2026') };
		expect(await search('searchAlbums', parameters)).toEqual({
			results: [
				{ name: 'Booth', value: 'sp-booth' },
				{ name: 'Dance floor', value: 'sp-dance' },
			],
		});
		expect(await search('searchAlbums', { ...parameters, event: byId('wedding-anna-ben') }, 'cere')).toEqual({
			results: [{ name: 'Ceremony', value: 'ceremony' }],
		});
	});

	it('asks for the event first when none is chosen', async () => {
		await expect(search('searchAlbums', { resource: 'photo', operation: 'upload' })).rejects.toThrow(
			'Choose the event first: the albums are those of the event',
		);
	});

	it('shows the service\'s refusal of a bad key in the dropdown', async () => {
		await expect(search('searchEvents', {}, undefined, 'ep_bad')).rejects.toThrow(
			/^Listing the events \(GET \/geteventsandalbums\) answered 401/,
		);
	});
});
