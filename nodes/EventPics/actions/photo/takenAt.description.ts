import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

const takenAtValue = (extra: IDisplayOptions['show']): INodeProperties => ({
	displayName: 'Taken At Value',
	name: 'takenAt',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-06-20T18:30:00+02:00',
	description:
		"When the photo was taken: an ISO 8601 date (in the workflow's time zone when it has no offset), epoch milliseconds or seconds, or an n8n date such as {{ $now }}. Empty sends none.",
	displayOptions: { show: extra },
});

/** Taken At of Photo > Upload: where the capture time comes from, and a fallback. */
export const takenAtFields: INodeProperties[] = [
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
		displayOptions: { show: { takenAtMode: ['exif'] } },
	},
	takenAtValue({ takenAtMode: ['value'] }),
	takenAtValue({ takenAtMode: ['exif'], takenAtFallback: ['value'] }),
];
