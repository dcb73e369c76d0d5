import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { duplicateKeyText } from '../../helpers/optionText';
import { shown } from '../../helpers/text';
import { asNodeError, itemError } from '../items';
import { chosenEventAndAlbum, readAccount } from '../account';
import { albumFields, eventFields, operationFields } from '../tool.description';
import { dedupeKey, fileIdKey } from './upload/dedupe';
import { RunHistory } from './upload/history';
import { claimKey, claimOf } from './upload/inFlight';

export const description: INodeProperties[] = operationFields(
	'photo',
	'keepNew',
	"Keeps only the items whose file this workflow has not uploaded to an EventPics event album yet. Pass the event's linkId, the album id (empty for none) and the file's ID.",
	[
		...eventFields,
		...albumFields,
		{
			displayName: 'File ID',
			name: 'fileId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. {{ $json.path }}',
			description:
				'What tells the file apart, the same value the Upload\'s "Skip Files Uploaded Before" identifies it by, such as a Google Drive file\'s ID or the path a Local File Trigger reports',
			hint: 'Put this node before the download or the read: known files are left out before they cost anything',
		},
	],
);

/**
 * Photo > Keep New Files: passes on the items whose File ID the workflow's history does not hold as
 * uploaded to the event and album (Skip Files Uploaded Before, by File ID, in an Upload of the same
 * workflow), and that no execution of this n8n process is uploading right now. One question to n8n's
 * store for all items, before anything is downloaded or read.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const account = await readAccount(this);
	const keys: Array<string | undefined> = [];
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const { event, album } = await chosenEventAndAlbum(this, account, itemIndex);
			const read = duplicateKeyText(this.getNodeParameter('fileId', itemIndex, ''));
			const fileId = read.ok ? read.text : '';
			if (fileId === '') {
				const given = read.ok ? 'is empty' : read.reason;
				throw itemError(
					this,
					itemIndex,
					`The File ID of item ${itemIndex} ${shown(given)}`,
					'Set "File ID" to a value that tells files apart, the same the Upload\'s "Skip Files Uploaded Before" uses, for example {{ $json.id }}.',
				);
			}
			keys[itemIndex] = dedupeKey(event.linkId, album?.id, fileIdKey(fileId));
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push({
				json: { error: nodeError.message },
				error: nodeError,
				pairedItem: { item: itemIndex },
			});
		}
	}
	const history = new RunHistory(this, account);
	const asked = keys.filter((key): key is string => key !== undefined);
	const known = await history.check(asked);
	const inFlight = (key: string) => claimOf(claimKey(this.getWorkflow().id, history.entryOf(key)));
	let kept = 0;
	keys.forEach((key, itemIndex) => {
		if (key === undefined || known.has(key) || inFlight(key)) return;
		kept++;
		output.push({ ...items[itemIndex], pairedItem: { item: itemIndex } });
	});
	const left = asked.length - kept;
	this.addExecutionHints({
		message: `EventPics: ${kept} of ${asked.length} ${asked.length === 1 ? 'file is' : 'files are'} new${left > 0 ? `; ${left} left out (uploaded before, or being uploaded)` : ''}.`,
		type: 'info',
		location: 'outputPane',
	});
	return output.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}
