import type { Emulator } from './fixture.cts';
import {
	binaryFromBuffer,
	byId,
	fromList,
	mediaBytes,
	runEventPics,
	startEmulator,
	uploadParameters,
} from './fixture.cts';

const upload = uploadParameters;
const photo = (fileName = 'p.jpg', size = 100) => ({
	binary: { data: binaryFromBuffer(mediaBytes(size), { fileName, mimeType: 'image/jpeg' }) },
});

describe('Photo > Upload: bad input gets a clear error naming the item and the field', () => {
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

	it('a missing binary field names the field and the fields the item has', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ binaryPropertyName: 'photo' }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe('Input item 0 has no binary field "photo" (it has: data)');
		expect(nodeError?.description).toBe(
			'Set "Input Binary Field" to the name of the binary field that holds the file (for example "data").',
		);
	});

	it('an item without any binary says so', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [{ json: { a: 1 } }],
		});
		expect(nodeError?.message).toBe('Input item 0 has no binary data (expected a binary field "data")');
	});

	it('with Continue On Fail, an item refused before its upload still names its file', async () => {
		const { items } = await runEventPics({
			emu,
			continueOnFail: true,
			parameters: upload(),
			inputItems: [
				{
					binary: {
						data: binaryFromBuffer(Buffer.alloc(0), {
							fileName: 'empty.jpg',
							mimeType: 'image/jpeg',
						}),
					},
				},
			],
		});
		expect(items[0].json).toMatchObject({
			outcome: 'failed',
			fileName: 'empty.jpg',
			binaryField: 'data',
			reason: 'The file "empty.jpg" in binary field "data" of item 0 is empty (0 bytes)',
		});
	});

	it('an empty file is refused before anything is sent', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload(),
			inputItems: [
				{
					binary: {
						data: binaryFromBuffer(Buffer.alloc(0), {
							fileName: 'empty.jpg',
							mimeType: 'image/jpeg',
						}),
					},
				},
			],
		});
		expect(nodeError?.message).toBe(
			'The file "empty.jpg" in binary field "data" of item 0 is empty (0 bytes)',
		);
		expect(
			emu.requests.filter((r) => r.url.startsWith('/getuploadurl') || r.server === 'storage'),
		).toHaveLength(0);
	});

	it("an unknown event lists the key's events", async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ event: byId('no-such-event') }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			`The event "no-such-event" is not one of this API key's events; its events are "Anna & Ben's Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)`,
		);
		expect(nodeError?.description).toBe(
			'Pick the event in the "Event" field from the list (it shows the events of the credential\'s API key), or check the credential.',
		);
	});

	it('an album of another event is refused in titles and ids, its title looked up in that event', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ album: byId('sp-booth') }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			'The album "Booth" (sp-booth) is not an album of "Anna & Ben\'s Wedding" (wedding-anna-ben); its albums are "Photo booth" (booth), "Ceremony" (ceremony)',
		);
		expect(nodeError?.description).toBe(
			'Pick the album again in the "Album" field (its list shows the albums of the chosen event), or leave it empty.',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('a stale album picked from an older list keeps the title the editor stored with it', async () => {
		const album = { ...fromList('alb-gone'), cachedResultName: 'Fotobox' };
		const event = { ...fromList('summer-party-2026'), cachedResultName: 'Summer Party 2026' };
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ event, album }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			'The album "Fotobox" (alb-gone) is not an album of "Summer Party 2026" (summer-party-2026); its albums are "Booth" (sp-booth), "Dance floor" (sp-dance)',
		);
		expect(emu.uploads).toHaveLength(0);
	});

	it('an album id known nowhere is named by its id; an event without albums says so', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ event: byId('office-opening'), album: byId('nope') }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			'The album "nope" is not an album of "Office Opening" (office-opening); it has no albums',
		);
		expect(nodeError?.description).toBe(
			'Leave the "Album" field empty (choose "No album" in the list): this event has no albums.',
		);
	});

	it('an unknown event picked from a list is named by the title the editor stored', async () => {
		const event = { ...fromList('old-party'), cachedResultName: 'Old Party' };
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ event }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			`The event "Old Party" (old-party) is not one of this API key's events; its events are "Anna & Ben's Wedding" (wedding-anna-ben), "Summer Party 2026" (summer-party-2026), "Office Opening" (office-opening)`,
		);
	});

	it('Skip Files Uploaded Before by an empty File ID is refused before anything is sent', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({
				options: { skipUploaded: { settings: { identifyBy: 'fileId', fileId: '={{ $json.id }}' } } },
			}),
			inputItems: [{ json: { id: '' }, ...photo() }],
		});
		expect(nodeError?.message).toBe(
			'Option "Skip Files Uploaded Before" identifies files by File ID, but the File ID of item 0 is empty',
		);
		expect(nodeError?.description).toContain('Set its "File ID" to a value that tells files apart');
		expect(emu.requests).toHaveLength(0);
	});

	it('an unreadable Taken At names the item and the accepted forms', async () => {
		const { nodeError } = await runEventPics({
			emu,
			parameters: upload({ takenAtMode: 'value', takenAt: 'last friday' }),
			inputItems: [photo()],
		});
		expect(nodeError?.message).toBe(
			'Taken At Value of item 0 cannot be read: "last friday" is not a date',
		);
		expect(nodeError?.description).toContain('ISO 8601');
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
			'Asking for an upload address (POST /getuploadurl) answered 400: INVALID_FILE_NAME: fileName is too long',
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
		expect(nodeError?.message).toBe(
			'Asking for an upload address (POST /getuploadurl) answered 401: UNAUTHORIZED: Invalid API key',
		);
		expect(nodeError?.description).toMatch(/^Check the API key in the EventPics credential/);
		expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(1);
	});

	it('a 200 without uploadUrl, or with a body that is not JSON, is a clear error', async () => {
		emu.addFault({ endpoint: 'getuploadurl', kind: 'noUploadUrl', times: 1 });
		const missing = await runEventPics({ emu, parameters: upload(), inputItems: [photo()] });
		expect(missing.nodeError?.message).toBe(
			'Asking for an upload address (POST /getuploadurl) answered 200 without an "uploadUrl" address',
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
		const noBinary = 'Input item 1 has no binary data (expected a binary field "data")';
		expect(items[1].json).toMatchObject({ outcome: 'failed', reason: noBinary, error: noBinary });
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
			error: 'Input item 1 has no binary data (expected a binary field "data")',
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
	let emu: Emulator;
	beforeAll(async () => (emu = await startEmulator()));
	afterAll(async () => await emu.close());
	beforeEach(() => emu.reset());

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
			/^Uploading the file to the upload address \(PUT\) answered 500/,
		);
		expect(nodeError?.description).toMatch(
			/^EventPics answered with a server error\. Run the workflow again later; if it persists, contact EventPics support\. Tried 2 times over about \d+ s\.$/,
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
			'Uploading the file to the upload address (PUT) got no answer: the server closed the connection before it answered',
		);
		expect(reset.nodeError?.description).toMatch(
			/^No answer came back\. Check the network and the Base URL in the credential, then run the workflow again\. Network error code: (ECONNRESET|EPIPE)\. Tried 2 times/,
		);
		emu.reset();
		const nobody = await runEventPics({
			emu,
			baseUrl: 'http://127.0.0.1:9',
			parameters: upload({ options: { maxAttempts: 1 } }),
			inputItems: [photo()],
		});
		expect(nobody.nodeError?.message).toBe(
			'Listing the events (GET /geteventsandalbums) got no answer: the server refused the connection (nothing listens there)',
		);
		expect(nobody.nodeError?.description).toContain('Network error code: ECONNREFUSED.');
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
		expect(nodeError?.description).toMatch(/^EventPics is limiting the request rate of this key/);
	});
});
