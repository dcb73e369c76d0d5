import {
	binaryFromBuffer,
	mediaBytes,
	fromList,
	runEventPics,
	uploadParameters,
	useEmulator,
} from '../node/fixture.cts';

const photo = () => ({
	binary: {
		data: binaryFromBuffer(mediaBytes(600), { fileName: 'o.jpg', mimeType: 'image/jpeg' }),
	},
});

const emu = useEmulator();

/**
 * Threat: numeric options typed as expressions skip the editor's limits. `{{ 0 }}` uploads made the
 * node "succeed" with empty items (silent loss), `{{ 1000 }}` ran 1000 uploads at once, `NaN` retried
 * for ever. Every number is checked at run time; an error names the option, the value and the range.
 */
describe('security: numeric options are checked whatever an expression gives', () => {
	/** Per option: its label, its range in words, and values an expression may give. */
	const RANGES: Record<string, [string, string, string[]]> = {
		concurrency: [
			'Concurrent Uploads',
			'a whole number from 0 to 64',
			['65', '-1', 'NaN', '2.5', '1000', '"four"'],
		],
		maxAttempts: ['Max Attempts', 'a whole number from 1 to 20', ['NaN', '0']],
		maxTotalWaitSeconds: [
			'Max Total Wait (Seconds)',
			'a number from 0 to 3600',
			['NaN', '-5', '1000000000'],
		],
		timeoutSeconds: ['Timeout (Seconds)', 'a whole number from 1 to 600', ['0', 'Infinity']],
		maxFileSizeMb: [
			'Max File Size (MiB)',
			'a number from 1 to 1048576',
			['0', '-5', 'NaN', '"lots"'],
		],
	};
	const cases = Object.entries(RANGES).flatMap(([name, [label, range, values]]) =>
		values.map((value) => [
			name,
			`={{ ${value} }}`,
			`"${label}" is ${value}, but must be ${range}`,
		]),
	);

	it.each(cases)(
		'Photo > Upload refuses %s = %s before anything is sent',
		async (name, value, reason) => {
			const result = await runEventPics({
				emu,
				parameters: uploadParameters({ options: { [name]: value } }),
				inputItems: [photo()],
			});
			expect(result.status).toBe('error');
			expect(result.nodeError?.message).toBe(reason);
			expect(result.nodeError?.description).toMatch(
				/^Set Options > ".+" to a (whole )?number from /,
			);
			expect(
				emu.requests.filter((r) => r.url.startsWith('/getuploadurl') || r.server === 'storage'),
			).toHaveLength(0);
			expect(emu.uploads).toHaveLength(0);
		},
	);

	it('Concurrent Uploads {{ 0 }} is the automatic choice: every file goes up, never an empty "success"', async () => {
		const result = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters({ options: { concurrency: '={{ 0 }}' } }),
			inputItems: [photo(), photo()],
		});
		expect(result.items.map((item) => item.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(emu.uploads).toHaveLength(2);
	});

	it('Concurrent Uploads {{ -1 }} under Continue On Fail is an error item for each item, nothing sent', async () => {
		const result = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters({ options: { concurrency: '={{ -1 }}' } }),
			inputItems: [photo(), photo()],
		});
		expect(result.items).toHaveLength(2);
		expect(
			result.items.every((item) => String(item.json.error).includes('"Concurrent Uploads" is -1')),
		).toBe(true);
		expect(emu.uploads).toHaveLength(0);
	});

	it('an option that differs per item is checked per item: the bad item fails, the good one goes up', async () => {
		const result = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: uploadParameters({ options: { maxAttempts: '={{ $json.tries }}' } }),
			inputItems: [
				{ ...photo(), json: { tries: 3 } },
				{ ...photo(), json: { tries: -2 } },
			],
		});
		expect(result.items[0].json).toMatchObject({ statusCode: 200 });
		expect(result.items[1].json.error).toBe(
			'"Max Attempts" is -2, but must be a whole number from 1 to 20',
		);
		expect(emu.uploads).toHaveLength(1);
	});

	it.each([
		['={{ 0 }}', '"Limit" is 0, but must be a whole number from 1 to 100000'],
		['={{ -1 }}', '"Limit" is -1, but must be a whole number from 1 to 100000'],
		['={{ NaN }}', '"Limit" is NaN, but must be a whole number from 1 to 100000'],
		['={{ 1.5 }}', '"Limit" is 1.5, but must be a whole number from 1 to 100000'],
	])('Get Many refuses Limit = %s', async (limit, message) => {
		for (const parameters of [
			{ resource: 'event', operation: 'getAll', returnAll: false, limit },
			{
				resource: 'album',
				operation: 'getAll',
				event: fromList('wedding-anna-ben'),
				returnAll: false,
				limit,
			},
		]) {
			const result = await runEventPics({ emu, parameters });
			expect(result.nodeError?.message).toBe(message);
			expect(result.nodeError?.description).toBe(
				'Set "Limit" to a whole number from 1 to 100000, or turn on "Return All"; when it is an expression, check what it gives.',
			);
		}
	});
});

/**
 * Threat (issue 19): text options given other values by an expression. A Duplicate Key that is an
 * object became "key:[object Object]" for every file, so all but the first were skipped silently; a
 * File Name that is not text crashed with "options.fileName?.trim is not a function".
 */
describe('security: text options are read as text whatever an expression gives', () => {
	const withId = (id: string) => ({ ...photo(), json: { id, meta: { z: 1, a: [id, true] } } });

	it('a File ID that is an object tells files apart by its JSON (keys sorted)', async () => {
		const fileId = '={{ { id: $json.id, meta: $json.meta } }}';
		const parameters = uploadParameters({
			options: { skipUploaded: { settings: { identifyBy: 'fileId', fileId } } },
		});
		const first = await runEventPics({ emu, parameters, inputItems: [withId('a'), withId('b')] });
		expect(first.items.map((item) => item.json.outcome)).toEqual(['uploaded', 'uploaded']);
		expect(first.items[0].json.historyKey).toBe(
			'wedding-anna-ben/booth/key:{"id":"a","meta":{"a":["a",true],"z":1}}',
		);
		// the next run knows both, and only them
		const again = await runEventPics({ emu, parameters, inputItems: [withId('b'), withId('c')] });
		expect(again.items.map((item) => item.json.outcome)).toEqual(['skipped', 'uploaded']);
		expect(emu.uploads).toHaveLength(3);
	});

	it('a File Name that is a number is that number as text', async () => {
		const result = await runEventPics({
			emu,
			parameters: uploadParameters({ options: { fileName: '={{ 20260620 }}' } }),
			inputItems: [photo()],
		});
		expect(result.items[0].json).toMatchObject({ outcome: 'uploaded', fileName: '20260620.jpg' });
	});

	it.each([
		['an object', '={{ { name: "a.jpg" } }}', 'an object'],
		['a list', '={{ ["a.jpg"] }}', 'a list'],
		['a boolean', '={{ true }}', 'true'],
	])(
		'a File Name that is %s is an error naming the option and the item',
		async (_kind, fileName, shown) => {
			const result = await runEventPics({
				emu,
				parameters: uploadParameters({ options: { fileName } }),
				inputItems: [photo()],
			});
			expect(result.nodeError?.message).toBe(`"File Name" is ${shown}, but must be text`);
			expect(result.nodeError?.context?.itemIndex).toBe(0);
			expect(result.nodeError?.description).toContain('{{ $json.name }}.jpg');
			expect(emu.uploads).toHaveLength(0);
		},
	);
});
