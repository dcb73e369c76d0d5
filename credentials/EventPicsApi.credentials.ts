import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../nodes/EventPics/helpers/baseUrl';

export class EventPicsApi implements ICredentialType {
	name = 'eventPicsApi';

	displayName = 'EventPics API';

	icon: Icon = { light: 'file:eventpics.svg', dark: 'file:eventpics.dark.svg' };

	documentationUrl = 'https://github.com/eventpics/n8n-nodes-eventpics#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Your personal EventPics API key. Create it in the EventPics app or web app: open the event, then the API key management.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			description:
				'Address of the EventPics API. Keep the default. Plain http:// is accepted only for an address on this machine: 127.0.0.1, localhost or [::1].',
		},
		{
			// shown under the field, where the user looks, while the address is plain http:// to another host
			displayName:
				'The node refuses a plain http:// Base URL to another machine, so that the API key never travels unencrypted. Use https://, or http:// only for 127.0.0.1, localhost or [::1].',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			// plain prefixes, no regex: n8n runs a display regex in a VM with a 250 ms limit, which a busy
			// machine misses, and the credential then fails to load ("Regular expression execution timed out")
			displayOptions: {
				show: { baseUrl: [{ _cnd: { startsWith: 'http://' } }] },
				hide: {
					baseUrl: [
						{ _cnd: { startsWith: 'http://127.0.0.1' } },
						{ _cnd: { startsWith: 'http://localhost' } },
						{ _cnd: { startsWith: 'http://[::1]' } },
					],
				},
			},
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};
}
