import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import type { FileHost } from '../node/fileHost.cts';
import { serve, startFileHost } from '../node/fileHost.cts';
import type { Emulator } from '../node/fixture.cts';
import { runAgent, startEmulator } from '../node/fixture.cts';
import { example, nodeNamed } from './run-example.cts';

const PHOTO = join(__dirname, '..', '..', 'fixtures', 'samples', 'booth-0001.jpg');
const TOOLS = ['List EventPics events', 'Upload photo from URL'];

/**
 * The example's own wiring and tool parameters; what the tool offers and answers in general is
 * test/product/node/aiTool.test.cts.
 */
describe('example: AI agent with EventPics tools', () => {
	const workflow = example('ai-agent-tools');
	let emu: Emulator;
	let files: FileHost;
	beforeAll(async () => {
		emu = await startEmulator();
		files = await startFileHost();
		files.route('/cake.jpg', serve.file(readFileSync(PHOTO), 'image/jpeg'));
	});
	afterAll(async () => {
		await emu.close();
		await files.close();
	});
	beforeEach(() => emu.reset());

	/** The example's two tools as n8n runs them for an AI agent, making `calls`. */
	async function agentCalls(
		calls: Array<{ tool: string; args: Record<string, string> }>,
		{ shipped = false } = {},
	) {
		const tools = Object.fromEntries(
			TOOLS.map((name) => {
				const { parameters } = nodeNamed(workflow, name);
				// the test's file host is on 127.0.0.1, which the shipped tool refuses
				const allow = !shipped && name === 'Upload photo from URL';
				const options = { allowInternalAddresses: true };
				return [name, (allow ? { ...parameters, options } : parameters) as INodeParameters];
			}),
		);
		return (await runAgent(emu, tools, calls)).answers;
	}
	const uploadTo = (linkId: string, albumId: string) => ({
		tool: 'Upload_photo_from_URL',
		args: { linkId, albumId, fileUrl: `${files.url}/cake.jpg` },
	});

	it('connects a chat trigger, a chat model and both EventPics tools to the agent', () => {
		expect(workflow.connections.Chat.main).toEqual([
			[{ node: 'AI Agent', type: 'main', index: 0 }],
		]);
		expect(workflow.connections['OpenAI Chat Model'].ai_languageModel).toEqual([
			[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }],
		]);
		for (const name of TOOLS) {
			expect(nodeNamed(workflow, name).type).toBe('n8n-nodes-eventpics.eventPicsTool');
			expect(workflow.connections[name].ai_tool).toEqual([
				[{ node: 'AI Agent', type: 'ai_tool', index: 0 }],
			]);
		}
	});

	// issue 30: the album comes from the agent, as the example ships (not an empty or fixed one)
	it("lists the events and uploads into the album the agent names, as n8n runs the example's tools", async () => {
		const album = nodeNamed(workflow, 'Upload photo from URL').parameters.album;
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
			uploadTo('wedding-anna-ben', 'ceremony'),
			uploadTo('summer-party-2026', 'sp-dance'),
		]);

		expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined, undefined]);
		expect(answers[0].items.map((event) => event.linkId)).toEqual([
			'wedding-anna-ben',
			'summer-party-2026',
			'office-opening',
		]);
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
		const [answer] = await agentCalls([uploadTo('wedding-anna-ben', 'ceremony')], {
			shipped: true,
		});
		expect(answer.error).toMatch(
			/^The File URL points into an internal network at http:\/\/127\.0\.0\.1:\d+\/cake\.jpg: "127\.0\.0\.1:\d+" is a loopback address$/,
		);
		expect(emu.uploads).toHaveLength(0);
	});
});
