import { checkNumber, NUMBER_RULES } from '../../../nodes/EventPics/helpers/numberOption';

describe('checkNumber', () => {
	const concurrency = NUMBER_RULES.concurrency;

	it.each([
		[0, 0],
		[1, 1],
		[64, 64],
		['4', 4],
		[' 8 ', 8],
	])('accepts %p as %p', (value, expected) => {
		expect(checkNumber(value, concurrency)).toEqual({ ok: true, value: expected });
	});

	it.each([-1, NaN, Infinity, 2.5, 65, 1000, '', 'four', null, true, {}, [4]])(
		'refuses %p naming the option and the range',
		(value) => {
			const check = checkNumber(value, concurrency);
			expect(check.ok).toBe(false);
			if (!check.ok)
				expect(check.reason).toMatch(
					/^"Concurrent Uploads" is .+, but must be a whole number from 0 to 64$/,
				);
		},
	);

	it('allows fractions where the option is not a whole number', () => {
		expect(checkNumber(2.5, NUMBER_RULES.maxTotalWaitSeconds)).toEqual({ ok: true, value: 2.5 });
		expect(checkNumber(0, NUMBER_RULES.maxTotalWaitSeconds)).toEqual({ ok: true, value: 0 });
	});
});
