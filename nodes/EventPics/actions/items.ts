import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Runs `work` for every input item. Its results are paired with the item. With Continue On Fail an
 * item that fails gets an error entry and the others still run; without it the first error stops
 * the node, always as a NodeApiError or NodeOperationError naming the item.
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	work: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await work(itemIndex);
			for (const result of results) output.push({ ...result, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
			if (!ctx.continueOnFail()) throw nodeError;
			const json: JsonObject = { error: nodeError.message };
			if (nodeError.description) json.description = nodeError.description;
			if (nodeError instanceof NodeApiError && nodeError.httpCode) json.httpCode = nodeError.httpCode;
			output.push({ json, pairedItem: { item: itemIndex } });
		}
	}
	return output;
}

/** Applies Return All / Limit of a Get Many operation. */
export function applyLimit<T>(ctx: IExecuteFunctions, itemIndex: number, list: T[]): T[] {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return list;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	return list.slice(0, Math.max(0, limit));
}
