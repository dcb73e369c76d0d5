import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { credentialTypes, useEmulator } from './fixture.cts';
import type { TriggerEmulator } from './triggerFixture.cts';
import { createPoller, emittedJson, newAlbumParameters } from './triggerFixture.cts';

const newEvent = { triggerOn: 'newEvent' };
const linkIds = (json: Array<Record<string, unknown>>) => json.map((item) => item.linkId);
/** What EventPics answers for a revoked key (the emulator's own 401 body). */
const REVOKED = {
	endpoint: 'geteventsandalbums',
	kind: 'status',
	status: 401,
	body: JSON.stringify({ code: 'UNAUTHORIZED', message: 'Invalid API key.', details: null }),
};
const NOTHING_LOST =
	'The trigger keeps what it has seen: once polls succeed again it reports only what is new, nothing twice.';

const emu = useEmulator<TriggerEmulator>();

describe('EventPics Trigger when polls fail', () => {
	it('a key that stops working: a clear error each poll, memory kept, and afterwards only the really new', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		const remembered = { current: poller.current(), saved: poller.saved() };
		emu.addFault(REVOKED);
		emu.addEvent({ linkId: 'during-outage', title: 'Created while the key was refused' });
		for (let poll = 0; poll < 3; poll++) {
			const tick = await poller.poll();
			expect(tick.emitted).toBeNull();
			expect(tick.error).toMatchObject({
				name: 'NodeApiError',
				httpCode: '401',
				message: 'EventPics refused the API key of the credential (401)',
				description: `Copy the key again from the EventPics app (open the event, then the API key management) into the EventPics credential. ${NOTHING_LOST}`,
			});
			expect(poller.current()).toEqual(remembered.current);
			expect(poller.saved()).toEqual(remembered.saved);
		}
		// a 401 is not retried: one request per poll
		expect(emu.requests.filter((request) => request.status === 401)).toHaveLength(3);
		emu.clearFaults();
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['during-outage']);
		expect((await poller.poll()).emitted).toBeNull();
	});

	it('a key refused at activation fails the activation and records nothing', async () => {
		emu.addFault({ ...REVOKED, times: 1 });
		const poller = await createPoller({ emu, parameters: newEvent });
		await expect(poller.activate()).rejects.toMatchObject({ httpCode: '401' });
		expect(poller.saved()).toEqual({});
		// activated again once the key works: the first activation then, firing nothing
		expect((await poller.activate()).emitted).toBeNull();
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['gala-2027']);
	});

	it('server errors are tried 3 times within the poll, then reported; one that passes costs nothing', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027' });
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 503, times: 2 });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['gala-2027']);
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 500 });
		const failed = await poller.poll();
		expect(failed.error).toMatchObject({ httpCode: '500' });
		expect(failed.error?.description).toMatch(
			/^The trigger asks again at its next poll; if it persists, contact EventPics support\. The trigger keeps .* nothing twice\. Tried 3 times over about \d+ s\.$/,
		);
	});

	it('never follows a redirect with the key; names the origin and keeps its memory', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		const before = poller.current();
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'redirect',
			status: 302,
			location: `${emu.elsewhereUrl}/secret/path?token=abc`,
		});
		const tick = await poller.poll();
		expect(tick.error?.message).toBe(
			`EventPics answered the request for the events list with a redirect to ${emu.elsewhereUrl} (302); the node does not follow redirects of calls that carry the API key, so the key was not sent there`,
		);
		expect(tick.error?.description).toContain(NOTHING_LOST);
		expect(emu.elsewhere).toEqual([]);
		expect(poller.current()).toEqual(before);
	});

	it('an answer larger than 4 MiB is refused, not read', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'huge', bytes: 64 * 1024 * 1024 });
		const tick = await poller.poll();
		expect(tick.error?.message).toBe(
			'EventPics answered the request for the events list with more than 4 MiB, more than such an answer can be, so the node stopped reading it',
		);
		expect(tick.error?.description).toContain(NOTHING_LOST);
	});

	it('a failure inside n8n before anything is sent is named as it was, not as a network failure', async () => {
		// Found in the real app (n8n 2.41.1, three EventPics Triggers in one workflow): each poll takes
		// the workflow's expression isolate and the first to end gives it back while the others still
		// run, so n8n's credential helper, applying the key, threw "No bridge acquired ..." inside
		// httpRequestWithAuthentication; nothing was sent, and the node called it "no connection could
		// be made". Here n8n's helper gets the same kind of error from the credential's authentication.
		let failure: Error | undefined;
		const authenticate = async (
			credentials: ICredentialDataDecryptedObject,
			options: IHttpRequestOptions,
		) => {
			if (failure) throw failure;
			return {
				...options,
				headers: { ...options.headers, Authorization: `Bearer ${credentials.apiKey}` },
			};
		};
		const poller = await createPoller({
			emu,
			parameters: newEvent,
			credentialTypes: { eventPicsApi: { ...credentialTypes.eventPicsApi, authenticate } },
		});
		await poller.activate();
		const remembered = poller.current();
		const sent = emu.requests.length;
		emu.addEvent({ linkId: 'during-failures', title: 'Created while polls failed' });
		const named = (message: string, fields: Record<string, string>) =>
			Object.assign(new Error(message), fields);
		const cases: Array<[Error, string]> = [
			[
				named('No bridge acquired for this context. Call acquire() first.', {
					name: 'IsolateError',
				}),
				'IsolateError: No bridge acquired for this context. Call acquire() first.',
			],
			// a code, but no network one: named with it (n8n aborting a request it cancels)
			[
				named('This operation was aborted', { name: 'AbortError', code: 'ABORT_ERR' }),
				'AbortError: This operation was aborted (ABORT_ERR)',
			],
			// what n8n says is redacted of the key
			[
				named(`Cannot resolve "Bearer ${emu.apiKey}"`, {}),
				'Cannot resolve "Bearer [redacted API key]"',
			],
		];
		for (const [thrown, shown] of cases) {
			failure = thrown;
			const tick = await poller.poll();
			expect(tick.emitted).toBeNull();
			expect(tick.error).toMatchObject({
				name: 'NodeOperationError',
				message: `The request for the events list failed: ${shown}`,
				description: `This is the error n8n or Node.js reported, as it was: no network failure the node knows. The trigger asks again at its next poll; if this repeats, report this message and your n8n version at https://github.com/eventpics/n8n-nodes-eventpics/issues. ${NOTHING_LOST}`,
			});
			expect(JSON.stringify([tick.error, tick.error?.message, tick.logs])).not.toContain(
				emu.apiKey,
			);
		}
		// nothing reached EventPics, nothing was forgotten, and once n8n works the new event comes once
		expect(emu.requests).toHaveLength(sent);
		expect(poller.current()).toEqual(remembered);
		failure = undefined;
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['during-failures']);
		expect((await poller.poll()).emitted).toBeNull();
	});

	it('a server that answers, but not in HTTP, is named by what Node.js said', async () => {
		const net = await import('node:net');
		const server = net.createServer((socket) =>
			socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nBad Header\r\n\r\n')),
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		try {
			const poller = await createPoller({
				emu,
				parameters: newEvent,
				baseUrl: `http://127.0.0.1:${port}`,
			});
			await expect(poller.activate()).rejects.toMatchObject({
				message:
					'The request for the events list failed: Parse Error: Invalid header token (HPE_INVALID_HEADER_TOKEN)',
			});
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it('the key appears nowhere: not in what it remembers, emits, errors or logs', async () => {
		const poller = await createPoller({ emu, parameters: newAlbumParameters() });
		await poller.activate();
		emu.addEvent({ linkId: 'gala-2027', title: 'Gala 2027', albums: [{ id: 'a', title: 'A' }] });
		const fired = await poller.poll();
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'status',
			status: 401,
			body: JSON.stringify({
				code: 'UNAUTHORIZED',
				message: `Key ${emu.apiKey} revoked`,
				details: { key: emu.apiKey },
			}),
		});
		const refused = await poller.poll();
		expect(refused.error?.message).toBe('EventPics refused the API key of the credential (401)');
		const everything = JSON.stringify([
			poller.saved(),
			poller.current(),
			fired,
			refused,
			refused.error?.message,
			refused.error?.description,
		]);
		expect(everything).not.toContain(emu.apiKey);
	});
});

describe('EventPics Trigger across restarts and changes', () => {
	it('n8n restarted: what was saved carries on; events added while it was down fire at activation, once', async () => {
		const before = await createPoller({ emu, parameters: newEvent });
		await before.activate();
		emu.addEvent({ linkId: 'first', title: 'First' });
		expect(linkIds(emittedJson(await before.poll()))).toEqual(['first']);
		const saved = before.saved(); // n8n saved it when it emitted
		emu.addEvent({ linkId: 'while-down', title: 'While n8n was down' });
		const after = await createPoller({ emu, parameters: newEvent, staticData: saved });
		expect(linkIds(emittedJson(await after.activate()))).toEqual(['while-down']);
		expect((await after.poll()).emitted).toBeNull();
	});

	it('a poll that found nothing is not saved by n8n, and a restart from the older save still floods nothing', async () => {
		const before = await createPoller({ emu, parameters: newEvent });
		await before.activate();
		const saved = before.saved();
		emu.removeEvent('office-opening');
		expect((await before.poll()).emitted).toBeNull();
		expect(before.saved()).toEqual(saved);
		// the memory only grows: the removed event stays remembered, so it is not new when it comes back
		expect(before.current()).toEqual(saved);
		emu.addEvent({ linkId: 'office-opening', title: 'Office opening' });
		expect((await before.poll()).emitted).toBeNull();
		const after = await createPoller({ emu, parameters: newEvent, staticData: saved });
		expect((await after.activate()).emitted).toBeNull();
	});

	it('other settings, another credential or Base URL start over: what exists then is recorded, nothing fires', async () => {
		const first = await createPoller({ emu, parameters: newEvent });
		await first.activate();
		const saved = first.saved();
		const albums = await createPoller({ emu, parameters: newAlbumParameters(), staticData: saved });
		expect((await albums.activate()).emitted).toBeNull();
		const other = await createPoller({
			emu,
			parameters: newEvent,
			staticData: saved,
			apiKey: emu.otherApiKey,
			credentialId: 'another-credential',
		});
		expect((await other.activate()).emitted).toBeNull();
		const sameHost = emu.baseUrl.replace('127.0.0.1', 'localhost');
		const moved = await createPoller({
			emu,
			parameters: newEvent,
			staticData: saved,
			baseUrl: sameHost,
		});
		expect((await moved.activate()).emitted).toBeNull();
		// and each carries on from there
		emu.addEvent({ linkId: 'theirs', title: 'Theirs', apiKey: emu.otherApiKey });
		expect(linkIds(emittedJson(await other.poll()))).toEqual(['theirs']);
	});

	it('the same credential edited to another account’s key and back: no flood either way', async () => {
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		emu.addEvent({ linkId: 'theirs-2', title: 'Theirs 2', apiKey: emu.otherApiKey });
		poller.editCredential('eventPicsApi', { apiKey: emu.otherApiKey });
		expect((await poller.poll()).emitted).toBeNull();
		emu.addEvent({ linkId: 'theirs-3', title: 'Theirs 3', apiKey: emu.otherApiKey });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['theirs-3']);
		poller.editCredential('eventPicsApi', { apiKey: emu.apiKey });
		expect((await poller.poll()).emitted).toBeNull();
		emu.addEvent({ linkId: 'mine', title: 'Mine' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['mine']);
	});

	it('the only event replaced by another between two polls is new; two of two replaced are taken as another account', async () => {
		for (const linkId of ['summer-party-2026', 'office-opening']) emu.removeEvent(linkId);
		const poller = await createPoller({ emu, parameters: newEvent });
		await poller.activate();
		emu.removeEvent('wedding-anna-ben');
		emu.addEvent({ linkId: 'replacement', title: 'Replacement' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['replacement']);
		emu.addEvent({ linkId: 'second', title: 'Second' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['second']);
		emu.removeEvent('replacement');
		emu.removeEvent('second');
		emu.addEvent({ linkId: 'x', title: 'X' });
		emu.addEvent({ linkId: 'y', title: 'Y' });
		expect((await poller.poll()).emitted).toBeNull();
		emu.addEvent({ linkId: 'z', title: 'Z' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['z']);
	});

	it('static data it did not write (damaged, or another shape) counts as none: nothing fires', async () => {
		for (const damaged of [
			{ eventPicsTriggerV1: { watch: 'x', seen: 'abc' } },
			{ eventPicsTriggerV1: { watch: 'AAAAAAAAAAA', seen: 12 } },
			{ eventPicsTriggerV1: 'nonsense' },
			{ somethingElse: true },
		]) {
			const poller = await createPoller({
				emu,
				parameters: newEvent,
				staticData: { 'node:Trigger': damaged },
			});
			expect((await poller.activate()).emitted).toBeNull();
			emu.addEvent({ linkId: 'after', title: 'After' });
			expect(linkIds(emittedJson(await poller.poll()))).toEqual(['after']);
			emu.removeEvent('after');
		}
	});
});

describe('EventPics Trigger with many events: bounded memory', () => {
	it('remembers the last 10,000 of 10,050 events in about 110 KB; a new one fires alone', async () => {
		for (let n = 0; n < 10_047; n++)
			emu.addEvent({ linkId: `event-${n}-${'x'.repeat(40)}`, title: `Event ${n}` });
		const poller = await createPoller({ emu, parameters: newEvent });
		expect((await poller.activate()).emitted).toBeNull();
		const size = JSON.stringify(poller.saved()).length;
		expect(size).toBeGreaterThan(110_000);
		expect(size).toBeLessThan(110_200);
		emu.addEvent({ linkId: 'newest', title: 'Newest' });
		expect(linkIds(emittedJson(await poller.poll()))).toEqual(['newest']);
		expect((await poller.poll()).emitted).toBeNull();
		expect(JSON.stringify(poller.current()).length).toBeLessThan(110_200);
	}, 60_000);
});
