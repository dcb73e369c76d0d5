import { PROBE_LIMITS } from '../../../nodes/EventPics/methods/credentialTest';
import { useEmulator, credentialTest } from '../node/fixture.cts';

/**
 * Threat: a Base URL whose server holds the credential test (run when the credential is saved) as
 * long as it likes, or fills n8n's memory: silent before its headers, a byte a second, a body without
 * end. The test ends within PROBE_LIMITS (documented in the README): 20 s in all, 10 s without a byte
 * of the answer, 4 MiB read at most. These run with the real limits, so each takes up to 20 s.
 */
describe('security: the credential test always ends', () => {
	const emu = useEmulator();

	const test = async () => {
		const started = Date.now();
		const result = await credentialTest(emu);
		return { result, seconds: (Date.now() - started) / 1000 };
	};
	const host = () => new URL(emu.baseUrl).host;

	it('the documented limits', () => {
		expect(PROBE_LIMITS).toEqual({ totalMs: 20_000, stallMs: 10_000, maxBytes: 4 * 1024 * 1024 });
	});

	it('a server that never sends its headers: ends after 20 s, in words', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'stall' });
		const { result, seconds } = await test();
		expect(result).toEqual({
			status: 'Error',
			message: `${host()} did not answer within 20 s. Check the Base URL, and that n8n can reach it (a proxy or firewall may stop it).`,
		});
		expect(seconds).toBeGreaterThanOrEqual(19.9);
		expect(seconds).toBeLessThan(26);
	}, 60_000);

	it('an answer dripped at 1 byte a second: ends at 20 s in all', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'drip', ms: 1000 });
		const { result, seconds } = await test();
		expect(result).toEqual({
			status: 'Error',
			message: `${host()} did not finish its answer within 20 s, so the test stopped waiting. Check the Base URL and test again.`,
		});
		expect(seconds).toBeGreaterThanOrEqual(19.9);
		expect(seconds).toBeLessThan(26);
	}, 60_000);

	it('an answer that stops in the middle: ends 10 s after its last byte', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'stall', afterBytes: 5 });
		const { result, seconds } = await test();
		expect(result).toEqual({
			status: 'Error',
			message: `${host()} stopped sending its answer for 10 s, so the test stopped waiting. Check the Base URL and test again.`,
		});
		expect(seconds).toBeGreaterThanOrEqual(9.9);
		expect(seconds).toBeLessThan(16);
	}, 60_000);

	it('a body without end: stops after 4 MiB, without holding more', async () => {
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'endless' });
		const before = process.memoryUsage().rss;
		const { result, seconds } = await test();
		expect(result).toEqual({
			status: 'Error',
			message: `${host()} answered with more than 4 MiB, more than an EventPics events list can be, so the test stopped reading. EventPics itself is at https://api.eventpics.net.`,
		});
		expect(seconds).toBeLessThan(10);
		expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
	}, 60_000);

	it('a good key still tests fine, and the key went to the Base URL only', async () => {
		const { result } = await test();
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(emu.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
			['/geteventsandalbums', `Bearer ${emu.apiKey}`],
		]);
	});
});
