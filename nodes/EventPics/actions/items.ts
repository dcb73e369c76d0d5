import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { checkNumber, NUMBER_RULES, rangeText } from '../helpers/numberOption';
import { shown } from '../helpers/text';

export type NodeError = NodeApiError | NodeOperationError;

/** A NodeOperationError about one item: what is wrong, and in `description` how to fix it. */
export function itemError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
}

/**
 * A switch of the item (`name`, shown as `label`), whatever an expression gave: true or false, or the
 * text "true" or "false" (the text "false" is not on); anything else is an error naming the field.
 */
export function readSwitch(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): boolean {
	const value: unknown = ctx.getNodeParameter(name, itemIndex, false);
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	const given = typeof value === 'string' ? `"${value}"` : String(JSON.stringify(value));
	throw itemError(
		ctx,
		itemIndex,
		`"${label}" of item ${itemIndex} must be true or false, not ${shown(given)}`,
		`Turn "${label}" on or off; when it is an expression, make it give true or false.`,
	);
}

/** Any error as a NodeApiError or NodeOperationError naming the item. */
export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * The output entry of a failed item under Continue On Fail. As n8n does, the error itself travels
 * with the item (so "Continue (using error output)" routes it) and the JSON holds its message.
 */
function errorItem(error: NodeError, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

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
			// one by one: spreading 150,000 results into push() overflows the call stack
			for (const result of ctx.helpers.constructExecutionMetaData(results, {
				itemData: { item: itemIndex },
			}))
				output.push(result);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!ctx.continueOnFail()) throw nodeError;
			output.push(errorItem(nodeError, itemIndex));
		}
	}
	return output;
}

/** Applies Return All / Limit of a Get Many operation. */
export function applyLimit<T>(ctx: IExecuteFunctions, itemIndex: number, list: T[]): T[] {
	if (readSwitch(ctx, itemIndex, 'returnAll', 'Return All')) return list;
	const rule = NUMBER_RULES.limit;
	const check = checkNumber(ctx.getNodeParameter('limit', itemIndex, 50), rule);
	if (!check.ok) {
		throw itemError(
			ctx,
			itemIndex,
			`${check.reason} (item ${itemIndex})`,
			`Set "Limit" to ${rangeText(rule)}, or turn on "Return All".`,
		);
	}
	return list.slice(0, check.value);
}
