import type { INodeProperties } from 'n8n-workflow';

import { NUMBER_RULES } from '../../helpers/numberOption';
import { DEFAULT_RETRY_POLICY } from '../../transport/retry';
import {
	AUTOMATIC_CONCURRENCY,
	DEFAULT_MAX_FILE_SIZE_MB,
	FILE_TYPES,
} from './upload/uploadOptions';

/** A numeric option: its label and range from NUMBER_RULES, the same rule the run-time check uses. */
function numberOption(
	name: keyof typeof NUMBER_RULES,
	value: number,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	const rule = NUMBER_RULES[name];
	return {
		displayName: rule.label,
		name,
		type: 'number',
		default: value,
		typeOptions: { minValue: rule.min, maxValue: rule.max },
		description,
		...extra,
	};
}

/**
 * Options of Photo > Upload about what may be fetched and uploaded (kept in the collection's A-Z
 * order there). Names short enough for n8n's option list; tooltips of one or two sentences, the
 * details in the README (Photo > Upload, Options).
 */
const allowOptions: INodeProperties[] = [
	{
		displayName: 'Allow Internal Addresses',
		name: 'allowInternalAddresses',
		type: 'boolean',
		default: false,
		description:
			'Whether the File URL, and the upload address EventPics answers with, may point to this machine or a private network (localhost, 10.x, 192.168.x, ...). Only for local set-ups you trust.',
	},
];

/** What the node uploads: photos and videos, also unknown types, or any file. */
const fileTypesOption: INodeProperties = {
	displayName: 'File Types',
	name: 'fileTypes',
	type: 'options',
	default: 'media',
	description: 'Which files to upload; others are refused with an error that names the file',
	options: [
		{
			name: FILE_TYPES.any,
			value: 'any',
			description: 'Any file (PDFs, audio, text, HTML, SVG), without looking at its content',
		},
		{
			name: FILE_TYPES.media,
			value: 'media',
			description: 'Photos and videos whose content is what their name says',
		},
		{
			name: FILE_TYPES.unknown,
			value: 'unknown',
			description:
				'Also files whose type cannot be told (camera RAW, unknown extensions), sent as application/octet-stream',
		},
	],
};

const maxFileSizeOption = numberOption(
	'maxFileSizeMb',
	DEFAULT_MAX_FILE_SIZE_MB,
	'Largest file downloaded from a File URL, in MiB',
	{
		displayOptions: { show: { '/source': ['url'] } },
	},
);

/**
 * Skip Files Uploaded Before: on once added, with how files are told apart inside it (a File ID only
 * then). The history is the workflow's: Keep New Files asks it with the same File ID.
 */
const skipUploadedOption: INodeProperties = {
	displayName: 'Skip Files Uploaded Before',
	name: 'skipUploaded',
	type: 'fixedCollection',
	default: { settings: { identifyBy: 'content' } },
	description:
		'Skip files this workflow uploaded to the same event and album before, while this option was on. Skipped files are reported in the output.',
	options: [
		{
			displayName: 'Settings',
			name: 'settings',
			values: [
				{
					displayName: 'Identify Files By',
					name: 'identifyBy',
					type: 'options',
					default: 'content',
					options: [
						{
							name: 'Content',
							value: 'content',
							description:
								'The same bytes, whatever the file is called (each file is read to tell)',
						},
						{
							name: 'File ID',
							value: 'fileId',
							description:
								"A value of the item, such as a Google Drive file ID or a file's path: lets Keep New Files leave out known files before they are downloaded or read",
						},
					],
				},
				{
					displayName: 'File ID',
					name: 'fileId',
					type: 'string',
					default: '',
					placeholder: 'e.g. {{ $json.path }}',
					description:
						"What tells this file apart from the others, the same in every run, such as a Google Drive file's ID or the path of a file in a folder",
					displayOptions: { show: { identifyBy: ['fileId'] } },
				},
			],
		},
	],
	hint: 'Only uploads made while this option is on are known: turn it on before the first import',
};

/** The Options collection of Photo > Upload (A-Z, as n8n shows it). */
export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		...allowOptions,
		numberOption(
			'concurrency',
			AUTOMATIC_CONCURRENCY,
			'How many files are uploaded at once. 0 = automatic: from 4 up to 64 while EventPics answers quickly.',
			{ hint: '0 = automatic (4 growing to 64); 1 uploads one file after the other' },
		),
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. booth-0001.jpg',
			description:
				"Name to upload the file under, instead of its own. An extension is added from the file's MIME type when the name has none.",
		},
		fileTypesOption,
		numberOption(
			'maxAttempts',
			DEFAULT_RETRY_POLICY.maxAttempts,
			'How many times one file is tried when EventPics answers 5xx or 429 or the connection breaks',
		),
		maxFileSizeOption,
		numberOption(
			'maxTotalWaitSeconds',
			DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
			'Longest time one file waits between its tries, summed, Retry-After pauses included',
		),
		skipUploadedOption,
		numberOption(
			'timeoutSeconds',
			DEFAULT_RETRY_POLICY.timeoutMs / 1000,
			'Longest time a call to EventPics may take, and an upload may stall with no data moving',
		),
	],
};
