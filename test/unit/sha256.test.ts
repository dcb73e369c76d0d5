import { createHash, randomBytes } from 'node:crypto';

import { Sha256 } from '../../nodes/EventPics/helpers/sha256';

const reference = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('Sha256 (our own, incremental) equals node:crypto', () => {
	it.each([0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 100_000])('for %i bytes', (size) => {
		const data = randomBytes(size);
		expect(new Sha256().update(data).hex()).toBe(reference(data));
	});

	it('for the FIPS test vector "abc"', () => {
		expect(new Sha256().update(Buffer.from('abc')).hex()).toBe(
			'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
		);
	});

	it('whatever the chunking', () => {
		const data = randomBytes(5000);
		const hash = new Sha256();
		for (let offset = 0; offset < data.length; ) {
			const size = 1 + ((offset * 7) % 97);
			hash.update(data.subarray(offset, offset + size));
			offset += size;
		}
		expect(hash.hex()).toBe(reference(data));
	});
});
