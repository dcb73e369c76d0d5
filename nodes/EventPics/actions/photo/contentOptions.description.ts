import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_FILE_SIZE_MB } from './fileSources';

/** Options of Photo > Upload about what may be fetched and uploaded (kept in the collection's A-Z order there). */
export const allowOptions: INodeProperties[] = [
	{
		displayName: 'Allow Files That Are Not Photos or Videos',
		name: 'allowOtherTypes',
		type: 'boolean',
		default: false,
		description:
			'Whether to upload files whose type is neither a photo (image/*) nor a video (video/*), and files whose content is text or HTML, instead of refusing them',
	},
	{
		displayName: 'Allow Internal Addresses',
		name: 'allowInternalAddresses',
		type: 'boolean',
		default: false,
		description:
			'Whether the File URL may point to this machine or a private network (localhost, 127.0.0.1, 10.x, 192.168.x, 169.254.x, fc00::/7, ...). Off by default so that a workflow or an AI agent cannot fetch internal files; turn on only for local set-ups you trust.',
		displayOptions: { show: { '/source': ['url'] } },
	},
];

export const maxFileSizeOption: INodeProperties = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSizeMb',
	type: 'number',
	default: DEFAULT_MAX_FILE_SIZE_MB,
	typeOptions: { minValue: 1, maxValue: 1048576 },
	description:
		'Largest file the URL source downloads, in MiB. A larger Content-Length is refused before reading; an answer without one is stopped when it passes the limit.',
	displayOptions: { show: { '/source': ['url'] } },
};
