import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as getAlbums from './album/getAll.operation';
import * as getEvent from './event/get.operation';
import * as getEvents from './event/getAll.operation';
import * as uploadPhoto from './photo/upload.operation';

interface Operation {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
}

export const operations: Record<string, Record<string, Operation>> = {
	event: { getAll: getEvents, get: getEvent },
	album: { getAll: getAlbums },
	photo: { upload: uploadPhoto },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	return [await handler.execute.call(this)];
}
