import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import type { TriggerEmulator } from '../node/triggerFixture.cts';
import { createPoller, startTriggerEmulator, TRIGGER_TYPE } from '../node/triggerFixture.cts';
import { example, nodeNamed } from './run-example.cts';

const MAIL_NODE = 'Tell the organizer';
const MAIL_FIELDS = ['fromEmail', 'toEmail', 'subject', 'emailFormat', 'text'];

/**
 * n8n's Send Email node is not installed here (n8n-nodes-base; the real one sends through a local
 * SMTP server in `npm run test:n8n`). This stand-in, under its name and version, resolves the
 * node's parameters through the engine for each item, which is what the real node would send,
 * and outputs them instead of sending.
 */
const mailRecorder: INodeType = {
	description: {
		displayName: 'Send Email (recording stand-in)',
		name: 'n8n-nodes-base.emailSend',
		group: ['output'],
		version: 2.1,
		description: 'Resolves what Send Email would send',
		defaults: { name: 'Send Email' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			...MAIL_FIELDS.map((name) => ({
				displayName: name,
				name,
				type: 'string' as const,
				default: '',
			})),
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, item) => ({
				json: Object.fromEntries(
					MAIL_FIELDS.map((name) => [name, this.getNodeParameter(name, item)]),
				),
				pairedItem: { item },
			})),
		];
	},
};

describe('example: new event, tell the organizer', () => {
	const workflow = example('new-event-tell-organizer');
	const trigger = nodeNamed(workflow, 'New EventPics event');
	let emu: TriggerEmulator;
	beforeAll(async () => (emu = await startTriggerEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	const activePoller = () =>
		createPoller({
			emu,
			nodeName: trigger.name,
			parameters: trigger.parameters,
			nodes: workflow.nodes.filter((node) => node.name === MAIL_NODE),
			connections: workflow.connections,
			nodeTypes: { 'n8n-nodes-base.emailSend': mailRecorder },
		});
	const mails = (run?: { outputs: Record<string, INodeExecutionData[]> }) =>
		(run?.outputs[MAIL_NODE] ?? []).map((item) => item.json);

	it('polls for new events every minute (the mail node and its wiring: the run below)', () => {
		expect(trigger).toMatchObject({ type: TRIGGER_TYPE, typeVersion: 1 });
		expect(trigger.parameters).toEqual({
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			triggerOn: 'newEvent',
		});
	});

	it('sends nothing for the events that exist at activation, then one mail per new event with its title, link ID and albums', async () => {
		const poller = await activePoller();
		const activation = await poller.activate();
		expect(activation.emitted).toBeNull();
		expect(activation.run).toBeUndefined();
		emu.addEvent({
			linkId: 'gala-2027',
			title: 'Gala 2027',
			albums: [
				{ id: 'red', title: 'Red carpet' },
				{ albumId: 'bar', title: 'Bar' },
			],
		});
		emu.addEvent({ linkId: 'smith-wedding', title: 'Smith wedding' });
		const tick = await poller.poll();
		expect(tick.run?.status).toBe('success');
		expect(mails(tick.run)).toEqual([
			{
				fromEmail: 'Your studio <studio@example.com>',
				toEmail: 'organizer@example.com',
				subject: 'Your photo event "Gala 2027" is ready',
				emailFormat: 'text',
				text: 'Hello,\n\nyour photo event "Gala 2027" is set up in EventPics. Its link ID is gala-2027.\nAlbums: Red carpet, Bar.\n\nWe will send you the guest link before the day.\n\nBest regards',
			},
			expect.objectContaining({
				subject: 'Your photo event "Smith wedding" is ready',
				text: expect.stringContaining('Its link ID is smith-wedding.\nThe albums follow soon.\n'),
			}),
		]);
		const quiet = await poller.poll();
		expect(quiet.emitted).toBeNull();
		expect(quiet.run).toBeUndefined();
	});
});
