import type { RunResult } from '../node/fixture.cts';
import {
	fileItem,
	mediaBytes,
	runEventPics,
	uploadParameters,
	useEmulator,
	credentialTest,
	searchList,
	GET_ALL_EVENTS,
} from '../node/fixture.cts';

/**
 * Threat: a Base URL (or a compromised proxy in front of it) answers a call that carries the API key
 * with a redirect to another host. n8n re-sends credentials on redirects (the Authorization header on
 * 301/302, the JSON body with `apiKey` too on 307/308), so following it hands the key to that host.
 * The node, its dropdowns and the credential test must not follow: the host the redirect points to
 * (a second loopback listener that records everything) must never receive a request, and the error
 * must say what happened without the key or the redirect's path.
 */
describe('security: the API key never follows a redirect to another host', () => {
	const emu = useEmulator();

	const STATUSES = [301, 302, 307, 308];
	/** The redirect points at a path and query that must not show in any error. */
	const redirectTo = (status: number, endpoint: string) =>
		emu.addFault({
			endpoint,
			kind: 'redirect',
			status,
			location: `${emu.elsewhereUrl}/collect?stolen=${status}`,
		});

	const expectNothingReachedElsewhere = () => {
		expect(JSON.stringify(emu.elsewhere)).not.toContain(emu.apiKey);
		expect(emu.elsewhere).toEqual([]);
	};

	const expectRedirectError = (result: RunResult, status: number, step: string) => {
		expect(result.status).toBe('error');
		expect(result.nodeError?.message).toBe(
			`EventPics answered ${step} with a redirect to ${emu.elsewhereUrl} (${status}); the node does not follow redirects of calls that carry the API key, so the key was not sent there`,
		);
		expect(result.nodeError?.description).toContain(
			'Check the Base URL in the EventPics credential',
		);
		expect(result.text()).not.toContain('stolen');
		expect(result.text()).not.toContain(emu.apiKey);
	};

	it.each(STATUSES)(
		'GET /geteventsandalbums answering %i: Event > Get Many stops, the key stays home',
		async (status) => {
			redirectTo(status, 'geteventsandalbums');
			const result = await runEventPics({
				emu,
				parameters: GET_ALL_EVENTS,
			});
			expectNothingReachedElsewhere();
			expectRedirectError(result, status, 'the request for the events list');
			expect(emu.requests.filter((r) => r.url === '/geteventsandalbums')).toHaveLength(1);
		},
	);

	it.each(STATUSES)(
		'POST /getuploadurl answering %i: the upload stops, neither header nor body with the key leaves',
		async (status) => {
			redirectTo(status, 'getuploadurl');
			const result = await runEventPics({
				emu,
				parameters: uploadParameters(),
				inputItems: [fileItem('r.jpg', mediaBytes(500), 'image/jpeg')],
			});
			expectNothingReachedElsewhere();
			expectRedirectError(result, status, 'the request for an upload address');
			// a redirect is not retried: it would only be refused again
			expect(emu.requests.filter((r) => r.url === '/getuploadurl')).toHaveLength(1);
			expect(emu.uploads).toHaveLength(0);
		},
	);

	it.each(STATUSES)(
		'the Event dropdown (list search) with %i says so and sends nothing elsewhere',
		async (status) => {
			redirectTo(status, 'geteventsandalbums');
			const search = searchList(emu, {});
			const outcome = await search.then(
				() => 'no error',
				(error: Error) => error.message,
			);
			expectNothingReachedElsewhere();
			expect(outcome).toContain(`with a redirect to ${emu.elsewhereUrl} (${status});`);
		},
	);

	it.each([301, 302, 303, 307, 308])(
		'the credential test with %i reports the redirect and sends nothing elsewhere',
		async (status) => {
			redirectTo(status, 'geteventsandalbums');
			const result = await credentialTest(emu);
			expectNothingReachedElsewhere();
			expect(result).toEqual({
				status: 'Error',
				message: `The Base URL (${status}) answered with a redirect to another address. The test does not follow redirects, so the API key was not sent there. Check the Base URL. EventPics itself is at https://api.eventpics.net.`,
			});
		},
	);

	it('a redirect to the same origin is not followed either (the key goes to exactly the Base URL)', async () => {
		emu.addFault({
			endpoint: 'geteventsandalbums',
			kind: 'redirect',
			status: 307,
			location: '/geteventsandalbums?again=1',
		});
		const result = await runEventPics({
			emu,
			parameters: GET_ALL_EVENTS,
		});
		expect(result.nodeError?.message).toContain(`with a redirect to ${emu.baseUrl} (307);`);
		expect(emu.requests.filter((r) => r.server === 'api')).toHaveLength(1);
	});
});
