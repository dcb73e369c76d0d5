import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import type { IDataObject, INode } from 'n8n-workflow';

import type { Emulator } from '../node/fixture.cts';
import { credentialTypes, NODE_TYPE, nodeTypes, startEmulator } from '../node/fixture.cts';
import { example, nodeNamed } from './run-example.cts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require('../../tools/engine');
// n8n-core's own code that turns a node into the tool an AI Agent calls (schema from $fromAI()).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const {
	createNodeAsTool,
} = require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool');

const PHOTO = join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');
const TOOL_TYPE = 'n8n-nodes-eventpics.eventPicsTool';

interface AgentTool {
	name: string;
	description: string;
	schema: { shape: Record<string, unknown> };
	invoke: (args: IDataObject) => Promise<string>;
}

describe('example: AI agent with EventPics tools', () => {
	const workflow = example('ai-agent-tools');
	let emu: Emulator;
	let files: Server;
	let filesUrl: string;
	beforeAll(async () => {
		emu = await startEmulator();
		files = createServer((req, res) => {
			if (req.url !== '/cake.jpg') return void res.writeHead(404).end();
			const bytes = readFileSync(PHOTO);
			res
				.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': bytes.length })
				.end(bytes);
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
		filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await emu.close();
		await new Promise((resolve) => files.close(resolve));
	});
	beforeEach(() => emu.reset());

	/**
	 * The tool the agent gets for a node of the example: built by n8n-core's createNodeAsTool; a
	 * call runs the node's parameters through the real engine with the call's arguments as its input
	 * item, which is where $fromAI() reads them, as n8n does when an agent calls a tool node.
	 */
	function agentTool(node: INode): AgentTool {
		const { toolDescription, ...parameters } = node.parameters;
		const nodeType = nodeTypes[NODE_TYPE];
		return createNodeAsTool({
			node,
			nodeType: { ...nodeType, description: { ...nodeType.description, name: 'eventPicsTool' } },
			handleToolInvocation: async (args: IDataObject) => {
				const run = await engine.runWorkflow({
					nodes: [
						{ name: 'Agent', type: engine.START_NODE_TYPE },
						{ name: node.name, type: NODE_TYPE, parameters },
					],
					connections: { Agent: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
					inputItems: [{ json: args }],
					nodeTypes,
					credentialTypes,
					credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
				});
				if (run.error) throw new Error(run.error.message);
				return JSON.stringify(
					run.outputs[node.name].map((item: { json: IDataObject }) => item.json),
				);
			},
		}).response;
	}

	it('connects a chat trigger, a chat model and both EventPics tools to the agent', () => {
		expect(workflow.connections.Chat.main).toEqual([
			[{ node: 'AI Agent', type: 'main', index: 0 }],
		]);
		expect(workflow.connections['OpenAI Chat Model'].ai_languageModel).toEqual([
			[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }],
		]);
		for (const name of ['List EventPics events', 'Upload photo from URL']) {
			expect(nodeNamed(workflow, name).type).toBe(TOOL_TYPE);
			expect(workflow.connections[name].ai_tool).toEqual([
				[{ node: 'AI Agent', type: 'ai_tool', index: 0 }],
			]);
		}
	});

	it('offers "List EventPics events" without arguments; it answers with the events and their albums', async () => {
		const tool = agentTool(nodeNamed(workflow, 'List EventPics events'));
		expect(tool.name).toBe('List_EventPics_events');
		expect(tool.description).toContain('Lists the user');
		expect(Object.keys(tool.schema.shape)).toEqual([]);

		const answer = JSON.parse(await tool.invoke({}));

		expect(answer.map((event: IDataObject) => event.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
		]);
		expect(answer[1].albums).toEqual([
			{ id: 'sp-booth', title: 'Booth' },
			{ id: 'sp-dance', title: 'Dance floor' },
		]);
	});

	/** The upload tool of the example; the test's file host is on 127.0.0.1, which needs the option. */
	function uploadTool(allowInternalAddresses: boolean): AgentTool {
		const node = nodeNamed(workflow, 'Upload photo from URL');
		if (!allowInternalAddresses) return agentTool(node);
		return agentTool({
			...node,
			parameters: { ...node.parameters, options: { allowInternalAddresses: true } },
		});
	}

	it('offers "Upload photo from URL" with the event, album and address as arguments; it uploads the file', async () => {
		const tool = uploadTool(true);
		expect(Object.keys(tool.schema.shape).sort()).toEqual(['albumId', 'fileUrl', 'linkId']);

		const answer = JSON.parse(
			await tool.invoke({
				linkId: 'wedding-anna-ben',
				albumId: 'ceremony',
				fileUrl: `${filesUrl}/cake.jpg`,
			}),
		);

		// the tool answers in the compact form (Simplify, on by default): what the agent reads
		expect(answer).toEqual([
			{
				outcome: 'uploaded',
				fileName: 'cake.jpg',
				eventTitle: "Anna & Ben's Wedding",
				albumTitle: 'Ceremony',
				takenAt: expect.any(String),
				bytes: readFileSync(PHOTO).length,
				warnings: [],
			},
		]);
		expect(emu.uploads).toEqual([
			expect.objectContaining({
				linkId: 'wedding-anna-ben',
				albumId: 'ceremony',
				fileName: 'cake.jpg',
				contentType: 'image/jpeg',
				sha256: createHash('sha256').update(readFileSync(PHOTO)).digest('hex'),
			}),
		]);
	});

	/**
	 * The example's two tools as n8n runs them for an AI agent: the "EventPics Tool" type (its `@tool`
	 * fields), called through n8n-core's engine as AI Agent v3 calls a tool (test/tools/engine/ai-tool.js).
	 */
	async function agentCalls(calls: Array<{ tool: string; args: IDataObject }>) {
		const toolTypeName = engine.toolTypeName(NODE_TYPE);
		const tools = ['List EventPics events', 'Upload photo from URL'].map((name) => {
			const { parameters } = nodeNamed(workflow, name);
			// the test's file host is on 127.0.0.1, which the shipped tool refuses
			const upload = name === 'Upload photo from URL';
			return {
				name,
				type: toolTypeName,
				parameters: upload
					? { ...parameters, options: { allowInternalAddresses: true } }
					: parameters,
			};
		});
		const run = await engine.runWorkflow({
			nodes: [
				{ name: 'Chat', type: engine.START_NODE_TYPE },
				{
					name: 'AI Agent',
					type: engine.AGENT_TYPE_NAME,
					parameters: { calls: JSON.stringify(calls) },
				},
				...tools,
			],
			connections: {
				Chat: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
				...Object.fromEntries(
					tools.map(({ name }) => [
						name,
						{ ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
					]),
				),
			},
			nodeTypes: {
				[toolTypeName]: engine.toolVariant(nodeTypes[NODE_TYPE]),
				[engine.AGENT_TYPE_NAME]: engine.AGENT_TYPE,
			},
			credentialTypes,
			credentials: { eventPicsApi: { apiKey: emu.apiKey, baseUrl: emu.baseUrl } },
		});
		if (run.error) throw new Error(run.error.message);
		return run.outputs['AI Agent'][0].json.answers as Array<{
			items: IDataObject[];
			error?: string;
		}>;
	}

	// issue 30: the album comes from the agent, as the example ships (not an empty or fixed one)
	it("uploads into the album the agent names, as n8n runs the example's tool", async () => {
		const album = nodeNamed(workflow, 'Upload photo from URL').parameters.album as IDataObject;
		expect(album).toEqual({
			__rl: true,
			mode: 'id',
			// shown as "Defined automatically by the model" in the editor, as n8n's own tools are
			value: expect.stringMatching(
				/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('albumId', /,
			),
		});

		const answers = await agentCalls([
			{ tool: 'List_EventPics_events', args: {} },
			{
				tool: 'Upload_photo_from_URL',
				args: { linkId: 'wedding-anna-ben', albumId: 'ceremony', fileUrl: `${filesUrl}/cake.jpg` },
			},
			{
				tool: 'Upload_photo_from_URL',
				args: { linkId: 'summer-party-2026', albumId: 'sp-dance', fileUrl: `${filesUrl}/cake.jpg` },
			},
		]);

		expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined, undefined]);
		expect(answers[1].items).toEqual([
			expect.objectContaining({
				outcome: 'uploaded',
				eventTitle: "Anna & Ben's Wedding",
				albumTitle: 'Ceremony',
			}),
		]);
		expect(answers[2].items).toEqual([
			expect.objectContaining({
				outcome: 'uploaded',
				eventTitle: 'Summer Party 2026',
				albumTitle: 'Dance floor',
			}),
		]);
		expect(emu.uploads.map((u) => [u.linkId, u.albumId, u.fileName])).toEqual([
			['wedding-anna-ben', 'ceremony', 'cake.jpg'],
			['summer-party-2026', 'sp-dance', 'cake.jpg'],
		]);
	});

	it('as shipped, refuses an address on this machine (the agent cannot read internal files)', async () => {
		const tool = uploadTool(false);
		await expect(
			tool.invoke({
				linkId: 'wedding-anna-ben',
				albumId: 'ceremony',
				fileUrl: `${filesUrl}/cake.jpg`,
			}),
		).rejects.toThrow(
			/^The File URL points into an internal network at http:\/\/127\.0\.0\.1:\d+\/cake\.jpg: "127\.0\.0\.1:\d+" is a loopback address$/,
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('refuses a call without the address before anything is sent, as the agent would see it', async () => {
		const tool = agentTool(nodeNamed(workflow, 'Upload photo from URL'));

		await expect(tool.invoke({ linkId: 'wedding-anna-ben', albumId: 'ceremony' })).rejects.toThrow(
			/fileUrl/,
		);
		expect(emu.requests).toHaveLength(0);
	});

	it('tells the agent which event is unknown, so it can pick another', async () => {
		const tool = agentTool(nodeNamed(workflow, 'Upload photo from URL'));

		await expect(
			tool.invoke({ linkId: 'birthday', albumId: '', fileUrl: `${filesUrl}/cake.jpg` }),
		).rejects.toThrow('The event "birthday" is not one of this API key\'s events');
		expect(emu.uploads).toHaveLength(0);
	});
});
