import type { INodeProperties } from 'n8n-workflow';

import { NUMBER_RULES } from '../../helpers/numberOption';
import { DEFAULT_RETRY_POLICY } from '../../transport/retryPolicy';
import { AUTOMATIC_CONCURRENCY, DEFAULT_MAX_FILE_SIZE_MB } from './uploadOptions';

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

/** Options of Photo > Upload about what may be fetched and uploaded (kept in the collection's A-Z order there). */
const allowOptions: INodeProperties[] = [
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

const maxFileSizeOption = numberOption(
	'maxFileSizeMb',
	DEFAULT_MAX_FILE_SIZE_MB,
	'Largest file the URL source downloads, in MiB. A larger Content-Length is refused before reading; an answer without one is stopped when it passes the limit.',
	{
		displayOptions: { show: { '/source': ['url'] } },
	},
);

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
			'How many files are uploaded at once. 0 = automatic: starts with 4 and goes up to 64 while EventPics answers quickly.',
			{ hint: '0 = automatic (4 growing to 64); 1 uploads one file after the other' },
		),
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
		numberOption(
			'maxAttempts',
			DEFAULT_RETRY_POLICY.maxAttempts,
			'How many times one upload is tried when EventPics answers 5xx or 429 or the connection breaks. A 429 that says when to come back (Retry-After) only uses up Max Total Wait.',
		),
		maxFileSizeOption,
		numberOption(
			'maxTotalWaitSeconds',
			DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
			'Longest time one upload waits between its tries, summed. A Retry-After longer than what is left ends the tries at once; the pause of all uploads after a 429 is never longer either.',
		),
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
		numberOption(
			'timeoutSeconds',
			DEFAULT_RETRY_POLICY.timeoutMs / 1000,
			'Longest time one call to EventPics may take in all, and longest time an upload may stall (no data moving). A large file may take longer as long as its data keeps moving.',
		),
	],
};
