import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { resources } from './resources';

/** The value n8n gives the "Custom API Call" entry it adds under Resource and Operation. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	if (resource === CUSTOM_API_CALL || operation === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), 'This node has no "Custom API Call" operation', {
			description:
				'For an EventPics API call this node does not offer, use the HTTP Request node: set Authentication to "Predefined Credential Type", Credential Type to "EventPics API" and pick this credential; n8n then sends the API key as a Bearer header. Here, pick one of the listed operations.',
		});
	}
	const handler = resources[resource]?.operations[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return [await handler.execute.call(this)];
}
