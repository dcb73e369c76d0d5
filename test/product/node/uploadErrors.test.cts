import type { RunOptions } from './fixture.cts';
import {
	binaryFromBuffer,
	byId,
	fileItem,
	fromList,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
} from './fixture.cts';

const upload = uploadParameters;
const photo = (fileName = 'p.jpg', size = 100) => ({
	binary: { data: binaryFromBuffer(mediaBytes(size), { fileName, mimeType: 'image/jpeg' }) },
});

const emu = useEmulator();

describe('Photo > Upload: bad input gets a clear error naming the item and the field', () => {
	const FIELD_HINT =
		'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").';
	const EVENTS =
		'its events are "Anna & Ben\'s Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)';
	const refusals: Array<
		[string, Parameters<typeof upload>[0], RunOptions['inputItems'], string, (string | RegExp)?]
	> = [
		[
			'a missing binary field names the field and the fields the item has',
			{ binaryPropertyName: 'photo' },
			[photo()],
			'The item has no binary field "photo" (it has: data)',
			FIELD_HINT,
		],
		[
			'an item without any binary says so',
			{},
			[{ json: { a: 1 } }],
			'The item has no binary data (expected a binary field "data")',
		],
		[
			'Taken At from a value that is empty for the item is an error, not a photo sent without a date',
			{ takenAt: { source: 'value', value: '={{ $json.shotAt }}' } },
			[photo()],
			'"Taken At" is set to a value, but its Value is empty',
			/Options > "Taken At" > "Value"/,
		],
		[
			'an empty file is refused before anything is sent',
			{},
			[fileItem('empty.jpg', Buffer.alloc(0), 'image/jpeg')],
			'The file "empty.jpg" in binary field "data" is empty (0 bytes)',
		],
		[
			"an unknown event lists the key's events",
			{ event: byId('no-such-event') },
			[photo()],
			`The event "no-such-event" is not one of this API key's events; ${EVENTS}`,
			'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		],
		[
			'an unknown event picked from a list is named by the title the editor stored',
			{ event: { ...fromList('old-party'), cachedResultName: 'Old Party' } },
			[photo()],
			`The event "Old Party" (old-party) is not one of this API key's events; ${EVENTS}`,
		],
		[
			'an album of another event is refused in titles and ids, its title looked up in that event',
			{ album: byId('sp-booth') },
			[photo()],
			'The album "Booth" (sp-booth) is not an album of "Anna & Ben\'s Wedding" (wedding-anna-ben); its albums are "Photo booth" (booth), "Ceremony" (ceremony)',
			'Pick the album again in the "Album" field (its list shows the albums of the chosen event), or leave it empty.',
		],
		[
			'a stale album picked from an older list keeps the title the editor stored with it',
			{
				event: { ...fromList('summer-party-2026'), cachedResultName: 'Summer Party 2026' },
				album: { ...fromList('alb-gone'), cachedResultName: 'Fotobox' },
			},
			[photo()],
			'The album "Fotobox" (alb-gone) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance)',
		],
		[
			'an album id known nowhere is named by its id; an event without albums says so',
			{ event: byId('office-opening'), album: byId('nope') },
			[photo()],
			'The album "nope" is not an album of "Office Opening" (office-opening); it has no albums',
			'Leave the "Album" field empty (choose "No album" in the list): this event has no albums.',
		],
		[
			'Skip Files Uploaded Before by an empty File ID is refused before anything is sent',
			{
				options: {
					skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } },
				},
			},
			[{ json: { id: '' }, ...photo() }],
			'"Skip Files Uploaded Before" identifies files by File ID, but the File ID is empty',
			/Set its "File ID" to a value that tells files apart/,
		],
		[
			'an unreadable Taken At names the item and the accepted forms',
			{ takenAt: { source: 'value', value: 'last friday' } },
			[photo()],
			'"Taken At" cannot be read: "last friday" is not a date',
			/ISO 8601/,
		],
	];

	// (a rest parameter: jest takes a fifth named one that a row leaves out for a done callback)
	it.each(refusals)('%s', async (...[, parameters, inputItems, message, description]) => {
		const { nodeError } = await runEventPics({ emu, parameters: upload(parameters), inputItems });
		expect(nodeError?.message).toBe(message);
		if (typeof description === 'string') expect(nodeError?.description).toBe(description);
		else if (description) expect(nodeError?.description).toMatch(description);
		const sent = emu.requests.filter(
			(r) => r.url.startsWith('/getuploadurl') || r.server === 'storage',
		);
		expect(sent).toHaveLength(0);
	});

	it('with Continue On Fail, an item refused before its upload still names its file', async () => {
		const { items } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: upload(),
			inputItems: [fileItem('empty.jpg', Buffer.alloc(0), 'image/jpeg')],
		});
		expect(items[0].json).toMatchObject({
			outcome: 'failed',
			fileName: 'empty.jpg',
			binaryField: 'data',
			reason: null,
			error: 'The file "empty.jpg" in binary field "data" is empty (0 bytes)',
		});
	});

	it("a 400 from getuploadurl shows the service's code and message, not retried", async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 400,
			times: 1,
			body: JSON.stringify({
				code: 'INVALID_FILE_NAME',
				message: 'fileName is too long',
				details: null,
			}),
		});
		const { nodeError } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(nodeError?.httpCode).toBe('400');
		expect(nodeError?.message).toBe(
			'EventPics refused the request for an upload address (400): INVALID_FILE_NAME: fileName is too long',
		);
		expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(1);
	});

	it('a 401 from getuploadurl points at the credential, not retried', async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 401,
			times: 1,
			body: JSON.stringify({ code: 'UNAUTHORIZED', message: 'Invalid API key' }),
		});
		const { nodeError } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(nodeError?.httpCode).toBe('401');
		expect(nodeError?.message).toBe('EventPics refused the API key of the credential (401)');
		expect(nodeError?.description).toMatch(/^Open the EventPics credential, copy the key again/);
		expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(1);
	});

	it('a 200 without uploadUrl, or with a body that is not JSON, is a clear error', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', times: 1 });
		const missing = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(missing.nodeError?.message).toBe(
			'EventPics answered the request for an upload address without an "uploadUrl" address',
		);
		emu.addFault({ endpoint: 'getuploadurl', kind: 'badJson', times: 1 });
		const garbage = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(garbage.nodeError?.message).toBe(missing.nodeError?.message);
		expect(emu.uploads).toHaveLength(0);
	});

	it('with Continue On Fail a bad item gets an error entry and the others are uploaded', async () => {
		const { items, status } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: upload(),
			inputItems: [photo('a.jpg'), { json: { nothing: true } }, photo('c.jpg')],
		});
		expect(status).toBe('success');
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.fileName).toBe('a.jpg');
		const noBinary = 'The item has no binary data (expected a binary field "data")';
		expect(items[1].json).toMatchObject({ outcome: 'failed', reason: null, error: noBinary });
		expect(items[2].json.fileName).toBe('c.jpg');
		expect(emu.uploads.map((u) => u.fileName).sort()).toEqual(['a.jpg', 'c.jpg']);
	});

	it('with "Continue (using error output)" a bad item goes to the error output as n8n error item', async () => {
		const { allOutputs, nodeName, status } = await runEventPics({
			emu,
			onError: 'continueErrorOutput',
			parameters: upload(),
			inputItems: [photo('a.jpg'), { json: { nothing: true } }, photo('c.jpg')],
		});
		expect(status).toBe('success');
		const [uploaded, failed] = allOutputs[nodeName];
		expect(uploaded.map((item) => [item.json.outcome, item.json.fileName])).toEqual([
			['uploaded', 'a.jpg'],
			['uploaded', 'c.jpg'],
		]);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toEqual({
			error: 'The item has no binary data (expected a binary field "data")',
		});
		expect(failed[0].pairedItem).toEqual({ item: 1 });
		expect(failed[0].error).toMatchObject({
			name: 'NodeOperationError',
			description:
				'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
			context: { itemIndex: 1 },
		});
	});
});

describe('Photo > Upload: retries that lose nothing', () => {
	it('waits out a 429 with Retry-After and says it took two attempts', async () => {
		emu.addFault({
			endpoint: 'getuploadurl',
			kind: 'status',
			status: 429,
			retryAfter: 1,
			times: 1,
		});
		const started = Date.now();
		const { items } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(items[0].json).toMatchObject({ statusCode: 200, attempts: 2, uploadUrlRequests: 2 });
		expect(emu.uploads).toHaveLength(1);
	});

	it('retries a 429 on the PUT with an HTTP-date Retry-After, on the same valid address', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 429, retryAfterDateIn: 1, times: 1 });
		const { items } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(items[0].json).toMatchObject({ attempts: 2, uploadUrlRequests: 1 });
		const puts = emu.requests.filter((r) => r.server === 'storage');
		expect(puts.map((r) => r.status)).toEqual([429, 200]);
		expect(puts[0].url).toBe(puts[1].url);
		expect(emu.uploads).toHaveLength(1);
	});

	it('retries a 500 on the events list and on the PUT', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 500, times: 1 });
		emu.addFault({ endpoint: 'put', kind: 'status', status: 503, times: 1 });
		const { items } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(items[0].json).toMatchObject({ statusCode: 200, attempts: 2 });
		expect(emu.uploads).toHaveLength(1);
	});

	it('asks for a fresh address when the storage says the address expired, never replays it', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'expiredUrl', times: 1 });
		const { items } = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(items[0].json).toMatchObject({ statusCode: 200, attempts: 2, uploadUrlRequests: 2 });
		const puts = emu.requests.filter((r) => r.server === 'storage');
		expect(puts.map((r) => r.status)).toEqual([403, 200]);
		expect(puts[0].url).not.toBe(puts[1].url);
		expect(emu.uploads).toHaveLength(1);
	});

	it('retries a connection reset in the middle of the PUT and stores the file once', async () => {
		emu.addFault({ endpoint: 'put', kind: 'reset', times: 1 });
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [photo('r.jpg', 2_000_000)],
		});
		expect(items[0].json).toMatchObject({ statusCode: 200, attempts: 2 });
		expect(items[0].json.possibleDuplicate).toBe(false);
		expect(emu.uploads).toHaveLength(1);
	});

	it('says so when a reset hid a completed PUT', async () => {
		emu.addFault({ endpoint: 'put', kind: 'resetAfterStore', times: 1 });
		const { items } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [photo('d.jpg', 5000)],
		});
		expect(items[0].json).toMatchObject({ statusCode: 200, attempts: 2, possibleDuplicate: true });
		expect(items[0].json.warnings).toEqual([
			'A connection broke after the whole file was sent, so the file was sent again: the album may hold it twice.',
		]);
	});

	it('gives up after Max Attempts and says which step failed, the status and what to try', async () => {
		emu.addFault({ endpoint: 'put', kind: 'status', status: 500 });
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ options: { maxAttempts: 2 } }),
			inputItems: [photo()],
		});
		expect(nodeError?.httpCode).toBe('500');
		expect(nodeError?.message).toMatch(
			/^The storage answered the upload with a server error \(500\): InternalError: /,
		);
		expect(nodeError?.description).toMatch(
			/^Run the workflow again later; if it persists, contact EventPics support\. Tried 2 times over about \d+ s\.$/,
		);
		expect(emu.requests.filter((r) => r.server === 'storage')).toHaveLength(2);
	});

	it('names the request that got no answer in words, and its network code in the description', async () => {
		// n8n swaps a message naming ECONNRESET & co. for a generic one that does not say which request
		emu.addFault({ endpoint: 'put', kind: 'reset' });
		const reset = await runEventPics({
			emu,
			parameters: upload({ options: { maxAttempts: 2 } }),
			inputItems: [photo('reset.jpg', 5000)],
		});
		expect(reset.nodeError?.message).toBe(
			'The storage did not answer the upload: the server closed the connection before it answered',
		);
		expect(reset.nodeError?.description).toMatch(
			/^Check the network and the Base URL in the credential, then run the workflow again\. \(PUT to the upload address: network error code (ECONNRESET|EPIPE)\.\) Tried 2 times/,
		);
		emu.reset();
		const nobody = await runEventPics({
			emu,
			baseUrl: 'http://127.0.0.1:9',
			parameters: upload({ options: { maxAttempts: 1 } }),
			inputItems: [photo()],
		});
		expect(nobody.nodeError?.message).toBe(
			'EventPics did not answer the request for the events list: the server refused the connection (nothing listens there)',
		);
		expect(nobody.nodeError?.description).toContain(
			'(GET /geteventsandalbums: network error code ECONNREFUSED.)',
		);
	});

	it('stops a 429 storm when the total wait would pass Max Total Wait', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'status', status: 429, retryAfter: 30 });
		const started = Date.now();
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ options: { maxAttempts: 5, maxTotalWaitSeconds: 10 } }),
			inputItems: [photo()],
		});
		expect(Date.now() - started).toBeLessThan(5000);
		expect(nodeError?.httpCode).toBe('429');
		expect(nodeError?.message).toBe('EventPics limited the request rate of this key (429)');
		expect(nodeError?.description).toMatch(
			/^Run the workflow again later, .*EventPics asked to wait 30 s before the next try \(Retry-After\), more than the 10 s left of Options > "Max Total Wait \(Seconds\)"/,
		);
	});
});
