import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_BASE_URL, MAX_BASE_URL_LENGTH } from '../nodes/EventPics/helpers/baseUrl';

/**
 * The credential test's base address: the Base URL without trailing slashes, checked with the same
 * rule as the node (helpers/baseUrl.ts). An http:// address is kept only for a loopback host; one
 * with a user name or password, a ?query or a #fragment, or longer than the node takes, is refused
 * too. A refused address becomes empty, so the test stops with "Invalid URL" before anything, and
 * above all the API key, is sent (and nothing of the address is shown back). The trailing slashes
 * go by a pattern anchored at the start, which runs in linear time (`/\/+$/` took time growing with
 * the square of a run of slashes).
 */
const SAFE_BASE_URL =
	`((u) => /[?#]/.test(u) || u.length > ${MAX_BASE_URL_LENGTH} || /^[a-z][a-z0-9+.-]*:\\/\\/[^\\/]*@/i.test(u) ? "" : ` +
	'/^https:\\/\\//i.test(u) || /^http:\\/\\/(127\\.\\d+\\.\\d+\\.\\d+|localhost|\\[::1\\])(:\\d+)?(\\/|$)/i.test(u) ? u : "")' +
	`((String($credentials.baseUrl || "${DEFAULT_BASE_URL}").trim().match(/^[\\s\\S]*[^\\/]/) || [""])[0])`;

const REDIRECT_MESSAGE = `answered with a redirect to another address. The test does not follow redirects, so the API key was not sent there. Check the Base URL: keep ${DEFAULT_BASE_URL} unless you use the local emulator.`;

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
				'Address of the EventPics API. Keep the default for production. http:// is accepted only for a local emulator on 127.0.0.1 or localhost.',
		},
		{
			// shown under the field while the address starts with http://, where the user looks
			displayName:
				'Plain http:// is only for the local EventPics emulator on 127.0.0.1, localhost or [::1]. For any other host the node and "Test" refuse this Base URL (the test then says "Invalid URL"), so that the API key never travels unencrypted: use https://.',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { startsWith: 'http://' } }] } },
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

	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{${SAFE_BASE_URL}}}`,
			url: '/geteventsandalbums',
			method: 'GET',
			// n8n would send the key along to wherever a redirect points
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode' as const,
				properties: { value, message: `The Base URL (${value}) ${REDIRECT_MESSAGE}` },
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'EventPics refused the API key (401). Copy the key again from the EventPics app (open the event, then the API key management) and paste it without spaces.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: `No EventPics API answered at this Base URL (404). Keep the default ${DEFAULT_BASE_URL} unless you use the local emulator.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message: 'EventPics is rate limiting this key (429). Wait a minute and test again.',
				},
			},
		],
	};
}
