import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	ICredentialType,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { callListSearch, callLoadOptions } from './index';
import { startTinyServer } from './tiny-server';

const KEY = 'list-search-key-42';

function albumsApi(baseUrl: string): ICredentialType {
	return {
		name: 'albumsApi',
		displayName: 'Albums API',
		properties: [
			{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: baseUrl },
		],
		authenticate: { type: 'generic', properties: { headers: { Authorization: '=Key {{$credentials.apiKey}}' } } },
	};
}

/** Throwaway node with a resource locator (listSearch) and a dependent options list (loadOptions). */
class Albums implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Albums',
		name: 'albums',
		group: ['transform'],
		version: 1,
		description: 'test',
		defaults: { name: 'Albums' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'albumsApi', required: true }],
		properties: [
			{ displayName: 'Event', name: 'eventId', type: 'string' as const, default: '' },
			{ displayName: 'Limit', name: 'limit', type: 'number' as const, default: 2 },
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection' as const,
				default: {},
				options: [{ displayName: 'Tag', name: 'tag', type: 'string' as const, default: '' }],
			},
			{ displayName: 'Album', name: 'albumId', type: 'options' as const, typeOptions: { loadOptionsMethod: 'getAlbums', loadOptionsDependsOn: ['eventId'] }, default: '' },
		],
	};

	methods = {
		listSearch: {
			async searchEvents(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('albumsApi');
				const page = Number(paginationToken ?? 0);
				const limit = this.getNodeParameter('limit') as number;
				const data = (await this.helpers.httpRequestWithAuthentication.call(this, 'albumsApi', {
					url: `${baseUrl}/events`,
					qs: { q: filter ?? '', page, limit },
					json: true,
				})) as { events: Array<{ id: string; title: string }>; more: boolean };
				return {
					results: data.events.map((e) => ({ name: e.title, value: e.id })),
					paginationToken: data.more ? String(page + 1) : undefined,
				};
			},
		},
		loadOptions: {
			async getAlbums(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('albumsApi');
				const eventId = this.getCurrentNodeParameter('eventId') as string;
				const sibling = this.getCurrentNodeParameter('&tag') as string; // sibling inside the same collection
				const data = (await this.helpers.httpRequestWithAuthentication.call(this, 'albumsApi', {
					url: `${baseUrl}/events/${eventId}/albums`,
					json: true,
				})) as { albums: string[] };
				return data.albums.map((a) => ({ name: `${a} (${sibling})`, value: a }));
			},
		},
	};

	async execute() {
		return [[]];
	}
}

const EVENTS = ['Wedding', 'Party', 'Office', 'Picnic', 'Gala'].map((title, i) => ({ id: `e${i}`, title }));

describe('engine harness: listSearch and loadOptions through LoadOptionsContext', () => {
	let server: Awaited<ReturnType<typeof startTinyServer>>;
	beforeAll(async () => {
		server = await startTinyServer((req) => {
			if (req.headers.authorization !== `Key ${KEY}`) return { status: 401, json: { message: 'no' } };
			const url = new URL(req.url, 'http://x');
			if (url.pathname === '/events') {
				const q = (url.searchParams.get('q') ?? '').toLowerCase();
				const page = Number(url.searchParams.get('page'));
				const limit = Number(url.searchParams.get('limit'));
				const hits = EVENTS.filter((e) => e.title.toLowerCase().includes(q));
				return { json: { events: hits.slice(page * limit, page * limit + limit), more: hits.length > (page + 1) * limit } };
			}
			const m = /^\/events\/(\w+)\/albums$/.exec(url.pathname);
			if (m) return { json: { albums: [`${m[1]}-booth`, `${m[1]}-dance`] } };
			return { status: 404, json: {} };
		});
	});
	afterAll(async () => server.close());
	beforeEach(() => server.requests.splice(0));

	const common = () => ({
		nodeType: new Albums(),
		credentialTypes: { albumsApi: albumsApi(server.url) },
		credentials: { albumsApi: { apiKey: KEY } },
	});

	it('calls the listSearch method with filter, node parameters (defaults filled) and the authenticated helper', async () => {
		const first = await callListSearch({ ...common(), methodName: 'searchEvents', filter: '' });
		expect(first).toEqual({
			results: [
				{ name: 'Wedding', value: 'e0' },
				{ name: 'Party', value: 'e1' },
			],
			paginationToken: '1',
		});
		const last = await callListSearch({ ...common(), methodName: 'searchEvents', paginationToken: '2' });
		expect(last).toEqual({ results: [{ name: 'Gala', value: 'e4' }], paginationToken: undefined });
		const filtered = await callListSearch({ ...common(), methodName: 'searchEvents', filter: 'PIC', parameters: { limit: 10 } });
		expect(filtered.results).toEqual([{ name: 'Picnic', value: 'e3' }]);
		expect(server.requests.map((r) => r.url)).toEqual([
			'/events?q=&page=0&limit=2',
			'/events?q=&page=2&limit=2',
			'/events?q=PIC&page=0&limit=10',
		]);
		expect(server.requests.every((r) => r.headers.authorization === `Key ${KEY}`)).toBe(true);
	});

	it('calls the loadOptions method with the current parameters and the parameter path', async () => {
		const options = await callLoadOptions({
			...common(),
			methodName: 'getAlbums',
			parameters: { eventId: 'e1', filters: { tag: 'vip' } },
			path: 'parameters.filters.albumId',
		});
		expect(options).toEqual([
			{ name: 'e1-booth (vip)', value: 'e1-booth' },
			{ name: 'e1-dance (vip)', value: 'e1-dance' },
		]);
	});

	it('surfaces the HTTP error a method gets (wrong key)', async () => {
		await expect(
			callListSearch({ ...common(), credentials: { albumsApi: { apiKey: 'wrong' } }, methodName: 'searchEvents' }),
		).rejects.toMatchObject({ httpCode: '401' });
	});

	it('fails clearly for a method the node does not have, or missing credentials', async () => {
		await expect(callListSearch({ ...common(), methodName: 'nope' })).rejects.toThrow(
			'Node type "harness-test.albums" has no listSearch method "nope"',
		);
		await expect(callListSearch({ ...common(), credentials: {}, methodName: 'searchEvents' })).rejects.toThrow(
			'Node does not have any credentials set',
		);
	});
});
