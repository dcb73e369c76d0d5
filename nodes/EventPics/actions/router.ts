import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../helpers/errors';
import { readAccount } from './account';
import { failedItem, failedOutput } from './output';
import * as albumGetAll from './album/getAll.operation';
import * as eventGet from './event/get.operation';
import * as eventGetAll from './event/getAll.operation';
import * as keepNew from './photo/keepNew.operation';
import * as upload from './photo/upload.operation';

/** The resources, in the Resource dropdown's order, each with its operations in theirs. */
const RESOURCES = {
	album: { name: 'Album', operations: [albumGetAll], default: 'getAll' },
	event: { name: 'Event', operations: [eventGet, eventGetAll], default: 'getAll' },
	photo: { name: 'Photo', operations: [keepNew, upload], default: 'upload' },
};

type Operation = (typeof RESOURCES)[keyof typeof RESOURCES]['operations'][number];

/** The value n8n gives the "Custom API Call" entry it adds under Resource and Operation. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** The canvas subtitle: the chosen operation's action ("Upload photo"), or n8n's own entry. */
export const subtitle = `={{ (${JSON.stringify(
	Object.fromEntries(
		Object.entries(RESOURCES).flatMap(([resource, { operations }]) =>
			operations.map(({ option }) => [`${resource}:${String(option.value)}`, option.action]),
		),
	),
)})[$parameter["resource"] + ":" + $parameter["operation"]] || "Custom API call" }}`;

export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(RESOURCES).map(([value, { name }]) => ({ name, value })),
		default: 'photo',
	},
	...Object.entries(RESOURCES).map(
		([resource, { operations, default: first }]): INodeProperties => ({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map(({ option }) => option),
			default: first,
		}),
	),
	...Object.values(RESOURCES).flatMap(({ operations }) =>
		operations.flatMap(({ description }) => description),
	),
];

/** Runs one item at a time; with Continue On Fail a failed item gets its error and the others go on. */
async function eachItem(
	ctx: IExecuteFunctions,
	operation: Extract<Operation, { executeItem: unknown }>,
) {
	const account = await readAccount(ctx);
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < ctx.getInputData().length; itemIndex++) {
		try {
			const results = await operation.executeItem.call(ctx, itemIndex, account);
			// one by one: spreading 150,000 results into push() overflows the call stack
			for (const result of ctx.helpers.constructExecutionMetaData(results, {
				itemData: { item: itemIndex },
			}))
				output.push(result);
		} catch (error) {
			output.push(failedItem(ctx, error, itemIndex, account.apiKey));
		}
	}
	return output;
}

/** Picks the operation (the resource first: n8n's Custom API Call may stand there), and runs it. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const value =
		resource === CUSTOM_API_CALL ? resource : (this.getNodeParameter('operation', 0) as string);
	if (value === CUSTOM_API_CALL)
		throw new NodeOperationError(this.getNode(), 'This node has no "Custom API Call" operation', {
			description:
				'For an EventPics API call this node does not offer, use the HTTP Request node: set Authentication to "Predefined Credential Type", Credential Type to "EventPics API" and pick this credential; n8n then sends the API key as a Bearer header. Here, pick one of the listed operations.',
		});
	const operations: Operation[] = RESOURCES[resource as keyof typeof RESOURCES]?.operations ?? [];
	const operation = operations.find(({ option }) => option.value === value);
	if (!operation)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${value}" of "${resource}" is not supported`,
		);
	try {
		return [
			await ('executeItem' in operation ? eachItem(this, operation) : operation.execute.call(this)),
		];
	} catch (error) {
		// what failed before any item could (the credential, an option of the whole run): every item, once
		const nodeError = toNodeError(this.getNode(), error);
		if (!this.continueOnFail()) throw nodeError;
		return [this.getInputData().map((_, item) => failedOutput(nodeError, item, true))];
	}
}
