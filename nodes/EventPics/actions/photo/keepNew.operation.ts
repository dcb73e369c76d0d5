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

const FIRST_RUN = {
	message:
		"EventPics: this run began the workflow's history of uploaded files. Files uploaded before an Upload skipped by File ID are not in it, so they all pass as new.",
	type: 'info' as const,
	location: 'outputPane' as const,
};

/**
 * Whether the upload of `key` that an execution of this process has in flight arrives: waited for, so
 * that a file whose upload fails there or turns out cut short (a photo read while it was still being
 * written) is passed on, not left out for good. No upload in flight: false.
 */
async function arrives(history: RunHistory, key: string): Promise<boolean> {
	const claim = history.claimOf(key);
	return claim !== undefined && (await claim.arrived);
}

/** An item's key in the history, from its fields as they are (the event and album are checked later). */
function itemKey(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const fileId = fileIdText(ctx, value, itemIndex, 'File ID');
	if (fileId === '')
		throw new NodeOperationError(ctx.getNode(), 'The File ID is empty', {
			description:
				'Set "File ID" to a value that tells files apart, the same the Upload\'s "Skip Files Uploaded Before" uses, for example {{ $json.id }}.',
			itemIndex,
		});
	const album = readLocator(ctx, 'album', itemIndex).value;
	return historyKey(
		readLocator(ctx, 'event', itemIndex).value,
		album === '' ? undefined : album,
		`key:${fileId}`,
	);
}

/**
 * Photo > Keep New: passes on the items whose File ID the workflow's history does not hold as
 * uploaded to the event and album (an Upload of the same workflow skipping by File ID records it);
 * a file that an execution of this n8n process is uploading right now is left out once that upload
 * arrives, and passed on when it does not. One question to n8n's store for all items, before
 * anything is downloaded or read; the event and album of the items passed on are checked against
 * the key's events (one question to EventPics), those of a known file were when it was uploaded.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const account = await readAccount(this);
	const fileIdOf = fileIdReader(this, 'fileId', items);
	const keys: Array<string | undefined> = [];
	const output: INodeExecutionData[] = [];
	const fail = (error: unknown, itemIndex: number) =>
		output.push(failedItem(this, error, itemIndex, account.apiKey));
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			keys[itemIndex] = itemKey(this, itemIndex, fileIdOf(itemIndex));
		} catch (error) {
			fail(error, itemIndex);
		}
	}
	const history = new RunHistory(this, account);
	const asked = keys.filter((key): key is string => key !== undefined);
	let passed = 0;
	let uploaded = 0;
	try {
		const known = await history.check(asked);
		for (const [itemIndex, key] of keys.entries()) {
			if (key === undefined) continue;
			if (known.has(key) || (await arrives(history, key))) {
				uploaded++;
				continue;
			}
			try {
				await chosenEventAndAlbum(this, account, itemIndex);
			} catch (error) {
				fail(error, itemIndex);
				continue;
			}
			output.push({ ...items[itemIndex], pairedItem: { item: itemIndex } });
			passed++;
		}
		if (await history.began()) this.addExecutionHints(FIRST_RUN);
	} finally {
		history.leave();
	}
	this.addExecutionHints({
		message: `EventPics: ${passed} of ${asked.length} ${asked.length === 1 ? 'file is' : 'files are'} new${uploaded > 0 ? `; ${uploaded} left out (uploaded before)` : ''}.`,
		type: 'info',
		location: 'outputPane',
	});
	return output.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}
