import type { INodeProperties } from 'n8n-workflow';

import { albumLocator, eventLocator } from '../descriptions';
import { allowOptions, maxFileSizeOption } from './contentOptions.description';

const show = { resource: ['photo'], operation: ['upload'] };

/**
 * Concurrency: without the "Concurrent Uploads" option the node starts with START_CONCURRENCY and
 * may grow to AUTO_MAX_CONCURRENCY while the answers stay good; with it, the user's number (1-16)
 * runs from the start (fewer for a while after a 429). DEFAULT_CONCURRENCY is the value the option shows when added.
 */
export const AUTO_MAX_CONCURRENCY = 64;
export const DEFAULT_CONCURRENCY = 16;
export const START_CONCURRENCY = 4;

const takenAtValue = (extra: object): INodeProperties => ({
	displayName: 'Taken At Value',
	name: 'takenAt',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-06-20T18:30:00+02:00',
	description:
		"When the photo was taken: an ISO 8601 date (without an offset it is read in the workflow's time zone; a time that happens twice when clocks go back is the first one, a time skipped when they go forward is moved forward by the gap), epoch milliseconds or seconds, or an n8n date. Sent as Unix milliseconds; empty sends none.",
	displayOptions: { show: { ...show, ...extra } },
});

const takenAtFields: INodeProperties[] = [
	{
		displayName: 'Taken At',
		name: 'takenAtMode',
		type: 'options',
		options: [
			{
				name: 'From the Photo (EXIF)',
				value: 'exif',
				description:
					'The capture time written by the camera (DateTimeOriginal), read from the first bytes of the file',
			},
			{
				name: 'Custom Value',
				value: 'value',
				description: 'A date or timestamp, usually an expression',
			},
			{ name: 'Upload Time', value: 'now', description: 'The moment the file is uploaded' },
			{ name: 'Not Sent', value: 'none', description: 'Send no capture time' },
		],
		default: 'exif',
		description: 'When the photo was taken, which EventPics uses to sort the album',
		displayOptions: { show },
	},
	{
		displayName: 'When the Photo Has No Date',
		name: 'takenAtFallback',
		type: 'options',
		options: [
			{ name: 'Send No Date', value: 'none' },
			{ name: 'Use the Upload Time', value: 'now' },
			{ name: 'Use a Custom Value', value: 'value' },
		],
		default: 'none',
		description:
			'What to send for a file without a usable EXIF date (screenshots, videos, edited images)',
		displayOptions: { show: { ...show, takenAtMode: ['exif'] } },
	},
	takenAtValue({ takenAtMode: ['value'] }),
	takenAtValue({ takenAtMode: ['exif'], takenAtFallback: ['value'] }),
];

export const uploadDescription: INodeProperties[] = [
	{ ...eventLocator, displayOptions: { show } },
	{ ...albumLocator, displayOptions: { show } },
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Binary Field',
				value: 'binary',
				description: 'Upload files that earlier nodes put in binary fields of the items',
			},
			{
				name: 'URL',
				value: 'url',
				description:
					'Download the file from an http(s) address and upload it (for AI agents and links)',
			},
		],
		default: 'binary',
		displayOptions: { show },
	},
	{
		displayName: 'Upload All Binary Fields',
		name: 'allBinaryFields',
		type: 'boolean',
		default: false,
		description: 'Whether to upload every binary field of each item, one output item per file',
		displayOptions: { show: { ...show, source: ['binary'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'Several fields: separate them with commas, e.g. data, photo2',
		description:
			'Name of the binary field of the input item that holds the photo or video. With several names, each file becomes its own output item.',
		displayOptions: { show: { ...show, source: ['binary'], allBinaryFields: [false] } },
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/photos/booth-0001.jpg',
		description: 'The http(s) address of the photo or video to upload',
		displayOptions: { show: { ...show, source: ['url'] } },
	},
	...takenAtFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [
			...allowOptions,
			{
				displayName: 'Concurrent Uploads',
				name: 'concurrency',
				type: 'number',
				default: DEFAULT_CONCURRENCY,
				typeOptions: { minValue: 1, maxValue: 16 },
				description:
					'How many files are uploaded at once. Without this option the node chooses: it starts with 4 and goes up to 64 while EventPics answers quickly. Either way it uses fewer for a while when EventPics answers 429 (too many requests), and the automatic choice also when answers slow down. Set 1 to upload one file after the other.',
			},
			{
				displayName: 'Duplicate Key',
				name: 'dedupeKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.fileKey }}',
				description:
					'Only used together with the option "Skip Files Uploaded Before" (add both): what identifies a file. Empty means its content (SHA-256), so a renamed copy is still recognised. Without that option the node stops with an error.',
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. booth-0001.jpg',
				description:
					"Name to upload the file under, instead of its own. An extension is added from the file's MIME type when the name has none.",
			},
			{
				displayName: 'Max Attempts',
				name: 'maxAttempts',
				type: 'number',
				default: 8,
				typeOptions: { minValue: 1, maxValue: 20 },
				description:
					'How many times one upload is tried when EventPics answers 5xx or 429 or the connection breaks. A 429 that says when to come back (Retry-After) only uses up Max Total Wait.',
			},
			maxFileSizeOption,
			{
				displayName: 'Max Total Wait (Seconds)',
				name: 'maxTotalWaitSeconds',
				type: 'number',
				default: 120,
				typeOptions: { minValue: 0, maxValue: 3600 },
				description:
					'Longest time one upload waits between its tries, summed. A Retry-After longer than what is left ends the tries at once; the pause of all uploads after a 429 is never longer either.',
			},
			{
				displayName: 'Send Unknown Types as Octet-Stream',
				name: 'allowUnknownType',
				type: 'boolean',
				default: false,
				description:
					'Whether to upload a file whose type cannot be told (an unknown extension, content not recognised) as application/octet-stream instead of refusing it',
			},
			{
				displayName: 'Skip Files Uploaded Before',
				name: 'skipDuplicates',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip files this node already uploaded to the same event and album in earlier executions (for scheduled imports). Skipped files are reported in the output.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeoutSeconds',
				type: 'number',
				default: 60,
				typeOptions: { minValue: 1, maxValue: 600 },
				description:
					'Longest time one call to EventPics may take in all, and longest time an upload may stall (no data moving). A large file may take longer as long as its data keeps moving.',
			},
		],
	},
];
