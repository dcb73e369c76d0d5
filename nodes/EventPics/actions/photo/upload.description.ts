import type { INodeProperties } from 'n8n-workflow';

import {
	albumFields,
	AS_TOOL,
	eventFields,
	fromAI,
	NOT_AS_TOOL,
	operationFields,
} from '../tool.description';
import { optionsField } from './options.description';
import { takenAtFields } from './takenAt.description';

const binarySource = {
	name: 'Binary Field',
	value: 'binary',
	description: 'Upload files that earlier nodes put in binary fields of the items',
};
const urlSource = {
	name: 'URL',
	value: 'url',
	description: 'Download the file from an http(s) address and upload it (for AI agents and links)',
};

const source: INodeProperties = {
	displayName: 'Source',
	name: 'source',
	type: 'options',
	noDataExpression: true,
	options: [binarySource, urlSource],
	default: 'binary',
	displayOptions: NOT_AS_TOOL,
};

const fileUrl: INodeProperties = {
	displayName: 'File URL',
	name: 'fileUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://example.com/photos/booth-0001.jpg',
	description: 'The http(s) address of the photo or video to upload',
	displayOptions: { show: { source: ['url'] }, ...NOT_AS_TOOL },
};

/** In the tool variant the source is a URL, which the agent gives: it cannot fill a binary field. */
const agentSource: INodeProperties = {
	...source,
	options: [urlSource, binarySource],
	default: 'url',
	displayOptions: AS_TOOL,
};
const agentFileUrl: INodeProperties = {
	...fileUrl,
	default: fromAI('fileUrl', 'The public http(s) address of the photo or video to upload'),
	displayOptions: { show: { source: ['url'], ...AS_TOOL.show } },
};

const fields: INodeProperties[] = [
	...eventFields,
	...albumFields,
	source,
	agentSource,
	{
		displayName: 'Upload All Binary Fields',
		name: 'allBinaryFields',
		type: 'boolean',
		default: false,
		description: 'Whether to upload every binary field of each item, one output item per file',
		displayOptions: { show: { source: ['binary'] } },
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
		displayOptions: { show: { source: ['binary'], allBinaryFields: [false] } },
	},
	fileUrl,
	agentFileUrl,
	...takenAtFields,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: 'On: outcome, file name, event, album, taken at, size, the reason when not uploaded and warnings. Off: every detail of the upload (type, attempts, status code, ...).',
	},
	optionsField,
];

/** The parameters of Photo > Upload. */
export const uploadDescription: INodeProperties[] = operationFields(
	'photo',
	'upload',
	"Uploads a photo or video from a public http(s) address into an EventPics event album. Pass the event's linkId, the album id (empty for none) and the file's address as fileUrl. Answers with outcome (uploaded, skipped or failed), fileName, bytes, eventTitle and albumTitle.",
	fields,
);
