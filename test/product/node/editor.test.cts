import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { createNodeTypes } from '../../tools/engine/node-types';
import {
	credentialTypes,
	NODE_TYPE,
	nodeTypes,
	runEventPics,
	uploadParameters,
	useEmulator,
	searchList,
} from './fixture.cts';

/** What the editor shows around the node: canvas subtitle, credential notice, n8n's Custom API Call. */
describe('the node and credential as the editor shows them', () => {
	const emu = useEmulator();

	const description = nodeTypes[NODE_TYPE].description;

	/** The subtitle as n8n's editor computes it: the subtitle expression on the node's parameters. */
	const subtitle = (parameters: Record<string, string>) => {
		const node: INode = {
			id: 'n1',
			name: 'EventPics',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		};
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: createNodeTypes(nodeTypes),
		});
		return workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {});
	};

	it('the canvas subtitle reads like the action', () => {
		expect(subtitle({ resource: 'photo', operation: 'upload' })).toBe('Upload photo');
		expect(subtitle({ resource: 'event', operation: 'getAll' })).toBe('Get many events');
		expect(subtitle({ resource: 'event', operation: 'get' })).toBe('Get event');
		expect(subtitle({ resource: 'album', operation: 'getAll' })).toBe('Get many albums');
		expect(subtitle({ resource: 'photo', operation: '__CUSTOM_API_CALL__' })).toBe(
			'Custom API call',
		);
	});

	it('the Upload action mentions both sources (AI agents read it)', () => {
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('photo'),
		);
		const upload = operation?.options?.find((o) => 'value' in o && o.value === 'upload') as {
			description: string;
		};
		expect(upload.description).toMatch(/binary field/);
		expect(upload.description).toMatch(/URL/);
	});

	it('Input Binary Field: the hint shows the comma-separated form and * for all, and the tooltip does not repeat it', () => {
		const field = description.properties.find((p) => p.name === 'binaryPropertyName')!;
		expect(field.hint).toContain('data, photo2');
		expect(field.hint).toMatch(/: \*$/);
		expect(field.description).not.toContain('data, photo2');
	});

	it('an empty Album reads as the list\'s "No album" entry; By Link ID shows a link ID like real ones', async () => {
		const locator = (name: string) =>
			description.properties.find(
				(p) => p.name === name && p.displayOptions?.show?.resource?.includes('photo'),
			)!;
		const mode = (name: string, modeName: string) =>
			locator(name).modes!.find((m) => m.name === modeName)!;
		const { results } = await searchList(emu, {
			methodName: 'searchAlbums',
			parameters: { ...uploadParameters(), album: { __rl: true, mode: 'list', value: '' } },
		});
		// picking "No album" empties the field, which then shows the same words
		expect(results[0]).toEqual({ name: mode('album', 'list').placeholder, value: '' });
		expect(mode('album', 'list').placeholder).toBe('No album (upload into the event itself)');
		expect(mode('event', 'id').placeholder).toBe('e.g. hx7Kq2');
	});

	it('every tooltip is one or two sentences (the details are in the README)', () => {
		const tooltips: Array<[string, string]> = [];
		const walk = (properties: INodeProperties[], path: string) => {
			for (const property of properties) {
				const name = `${path}${property.displayName}`;
				if (property.description) tooltips.push([name, property.description]);
				for (const option of (property.options ?? []) as unknown as Array<
					Record<string, unknown>
				>) {
					if (typeof option.description === 'string')
						tooltips.push([`${name} > ${String(option.name)}`, option.description]);
				}
				if (property.type === 'collection')
					walk(property.options as INodeProperties[], `${name} > `);
			}
		};
		walk(description.properties, '');
		const sentences = (text: string) =>
			text
				.replace(/e\.g\./g, 'eg')
				.split(/[.!?](?:\s|$)/)
				.filter((part) => part.trim() !== '').length;
		const long = tooltips.filter(([, text]) => sentences(text) > 2 || text.length > 200);
		expect(long).toEqual([]);
		expect(tooltips.length).toBeGreaterThan(30);
	});

	it('the credential shows a notice under Base URL while it starts with http://', () => {
		const credential = credentialTypes.eventPicsApi;
		const notice = credential.properties.find((p) => p.type === 'notice')!;
		expect(notice.displayName).toContain('Use https://');
		const shown = (baseUrl: string) =>
			NodeHelpers.displayParameter({ baseUrl }, notice, null, null);
		expect(shown('http://10.0.0.8:8787')).toBe(true);
		// the accepted local addresses get no warning (issue 40)
		for (const local of ['http://127.0.0.1:8787', 'http://localhost', 'http://[::1]:5678/'])
			expect(shown(local)).toBe(false);
		expect(shown('https://api.eventpics.net')).toBe(false);
	});

	it('"Custom API Call" (which n8n adds because the credential can authenticate the HTTP Request node) points there', async () => {
		// n8n injects the entry for nodes whose credential has `authenticate`: the HTTP Request node
		// can then use "EventPics API" as a predefined credential type
		expect(credentialTypes.eventPicsApi.authenticate).toMatchObject({ type: 'generic' });
		const { nodeError, status } = await runEventPics({
			emu,
			parameters: { ...uploadParameters(), operation: '__CUSTOM_API_CALL__' },
			inputItems: [{ json: {} }],
		});
		expect(status).toBe('error');
		expect(nodeError?.message).toBe('This node has no "Custom API Call" operation');
		expect(nodeError?.description).toContain(
			'use the HTTP Request node: set Authentication to "Predefined Credential Type", Credential Type to "EventPics API"',
		);
		expect(emu.requests).toHaveLength(0);
	});
});
