import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { chosenEventAndAlbum, readAccount, readLocator } from '../account';
import {
	AS_TOOL,
	albumFields,
	eventFields,
	fromAI,
	NOT_AS_TOOL,
	operationFields,
} from '../node.description';
import { fileIdReader, fileIdText } from '../options';
import { failedItem } from '../output';
import { historyKey, RunHistory } from './history';

export const option = {
	name: 'Keep New',
	value: 'keepNew',
	description:
		'Keep only the items whose file this workflow has not uploaded yet, before downloading or reading it',
	action: 'Keep new photos',
};

const fileId: INodeProperties = {
	displayName: 'File ID',
	name: 'fileId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.path }}',
	description:
		'What tells the file apart, the same value the Upload\'s "Skip Files Uploaded Before" identifies it by, such as a Google Drive file\'s ID or the path a Local File Trigger reports',
	hint: 'Put this node before the download or the read: known files are left out before they cost anything',
	displayOptions: NOT_AS_TOOL,
};

export const description: INodeProperties[] = operationFields(
	'photo',
	'keepNew',
	"Keeps only the items whose file this workflow has not uploaded to an EventPics event album yet. Pass the event's linkId, the album id (empty for none) and the file's ID.",
	[
		...eventFields,
		...albumFields,
		fileId,
		{
			...fileId,
			default: fromAI('fileId', "The file's ID, as the Upload skipping by File ID was given it"),
			hint: undefined,
			displayOptions: AS_TOOL,
		},
	],
);

/** An item's key in the history, from its fields as they are (the event and album are checked later). */
function itemKey(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const fileId = fileIdText(ctx, value, itemIndex, 'File ID');
	if (fileId === '')
		throw new NodeOperationError(ctx.getNode(), 'The File ID is empty', {
			description:
				'Set "File ID" to a value that tells files apart, the same the Upload\'s "Skip Files Uploaded Before" uses, for example {{ $json.id }}.',
			itemIndex,
		});
	const album = readLocator(ctx, 'album', itemIndex).value || undefined;
	return historyKey(readLocator(ctx, 'event', itemIndex).value, album, `key:${fileId}`);
}

const INFO = { type: 'info', location: 'outputPane' } as const;

/**
 * Photo > Keep New: the items whose File ID the history does not hold, in one question to the store.
 * A file this process is uploading now is waited for (passed on when its upload fails or is cut short).
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const account = await readAccount(this);
	const fileIdOf = fileIdReader(this, 'fileId', items);
	const keys: Array<string | undefined> = [];
	const output: Array<INodeExecutionData | undefined> = [];
	const fail = (error: unknown, itemIndex: number) =>
		(output[itemIndex] = failedItem(this, error, itemIndex, account.apiKey));
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			keys[itemIndex] = itemKey(this, itemIndex, fileIdOf(itemIndex));
		} catch (error) {
			fail(error, itemIndex);
		}
	}
	const history = new RunHistory(this, account);
	const asked = keys.filter((key) => key !== undefined);
	let passed = 0;
	let uploaded = 0;
	try {
		const known = await history.check(asked);
		for (const [itemIndex, key] of keys.entries()) {
			if (key === undefined) continue;
			if (known.has(key) || (await history.claimOf(key)?.arrived)) {
				uploaded++;
				continue;
			}
			try {
				await chosenEventAndAlbum(this, account, itemIndex);
				output[itemIndex] = { ...items[itemIndex], pairedItem: { item: itemIndex } };
				passed++;
			} catch (error) {
				fail(error, itemIndex);
			}
		}
		if (await history.began())
			this.addExecutionHints({
				...INFO,
				message:
					"EventPics: this run began the workflow's history of uploaded files. Files uploaded before an Upload skipped by File ID are not in it, so they all pass as new.",
			});
	} finally {
		history.leave();
	}
	this.addExecutionHints({
		...INFO,
		message: `EventPics: ${passed} of ${asked.length} ${asked.length === 1 ? 'file is' : 'files are'} new${uploaded > 0 ? `; ${uploaded} left out (uploaded before)` : ''}.`,
	});
	return output.filter((item) => item !== undefined);
}
