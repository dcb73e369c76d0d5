import { startEmulator } from './index';
import { FaultSet } from './faults';
import { call, type Emu } from './testkit.cts';

let emu: Emu;
beforeAll(async () => {
	emu = await startEmulator({ seed: 7 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const list = () =>
	call(`${emu.baseUrl}/geteventsandalbums`, {
		headers: { authorization: `Bearer ${emu.apiKey}` },
	});

describe('probability and seed', () => {
	async function pattern(n: number) {
		const out: number[] = [];
		for (let i = 0; i < n; i++) out.push((await list()).status);
		return out;
	}

	test('a rule with probability applies at random, reproducibly for the same seed', async () => {
		emu.setOptions({ seed: 42 });
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 500, probability: 0.5 });
		const first = await pattern(40);
		const failures = first.filter((s) => s === 500).length;
		expect(failures).toBeGreaterThan(8);
		expect(failures).toBeLessThan(32);
		emu.reset();
		emu.setOptions({ seed: 42 });
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 500, probability: 0.5 });
		expect(await pattern(40)).toEqual(first);
		emu.reset();
		emu.setOptions({ seed: 43 });
		emu.addFault({ endpoint: 'geteventsandalbums', kind: 'status', status: 500, probability: 0.5 });
		expect(await pattern(40)).not.toEqual(first);
	});

	test('probability 0 never applies, 1 always; times counts only applications', () => {
		const f = new FaultSet(1);
		f.add({ endpoint: 'put', kind: 'reset', probability: 0 });
		expect(Array.from({ length: 50 }, () => f.take('put'))).toEqual(Array(50).fill(undefined));
		f.clear();
		f.add({ endpoint: 'put', kind: 'reset', probability: 1, times: 3 });
		expect(Array.from({ length: 5 }, () => f.take('put')?.kind)).toEqual([
			'reset',
			'reset',
			'reset',
			undefined,
			undefined,
		]);
	});
});

describe('rule validation', () => {
	test.each([
		[{ endpoint: 'put', kind: 'explode' }, /kind must be one of/],
		[{ endpoint: 'upload', kind: 'reset' }, /endpoint must be one of/],
		[{ endpoint: 'put', kind: 'status' }, /needs an HTTP status/],
		[{ endpoint: 'put', kind: 'noUploadUrl' }, /only applies to getuploadurl/],
		[{ endpoint: 'getuploadurl', kind: 'resetAfterStore' }, /only applies to put/],
		[{ endpoint: 'put', kind: 'badJson' }, /only applies to/],
		[{ endpoint: '*', kind: 'reset', times: 0 }, /times must be a positive integer/],
		[{ endpoint: '*', kind: 'reset', probability: 2 }, /probability must be/],
		[{ endpoint: '*', kind: 'delay' }, /needs ms/],
	])('addFault(%j) throws', (rule, message) => {
		expect(() => emu.addFault(rule as never)).toThrow(message);
		expect(emu.faults).toEqual([]);
	});

	test("a '*' rule of a put-only kind leaves the service endpoints alone", async () => {
		emu.addFault({ endpoint: 'put', kind: 'resetAfterStore' });
		expect((await list()).status).toBe(200);
		expect(emu.faults).toHaveLength(1);
	});
});
