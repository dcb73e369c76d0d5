// eslint-disable-next-line @typescript-eslint/no-require-imports
const { measureFunctions } = require('../../tools/size/functions') as {
	measureFunctions: () => Array<{ lines: number; name: string; file: string; line: number }>;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { measureBehaviours } = require('../../tools/size/behaviours') as {
	measureBehaviours: () => {
		rows: Array<{ behaviour: string; lines: number }>;
		total: number;
		unlisted: string[];
		missing: string[];
	};
};

/**
 * Longest product function, in lines (issue 23: code that reads straight down). Files have no cap
 * (issue 29): a file holds one thing, whatever its length.
 */
const MAX_FUNCTION_LINES = 60;

describe('product code reads straight down', () => {
	it(`has no function over ${MAX_FUNCTION_LINES} lines (node test/tools/size/functions.js lists them)`, () => {
		const functions = measureFunctions();
		expect(functions.length).toBeGreaterThan(200);
		const long = functions
			.filter((fn) => fn.lines > MAX_FUNCTION_LINES)
			.map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`);
		expect(long).toEqual([]);
	});
});

describe('where the product lines go (node test/tools/size/behaviours.js prints the table)', () => {
	it('lists every product file under one behaviour, and no file that is gone', () => {
		const { rows, total, unlisted, missing } = measureBehaviours();
		expect(unlisted).toEqual([]);
		expect(missing).toEqual([]);
		// each file counted once: the rows add up to the product's lines
		expect(rows.reduce((sum, row) => sum + row.lines, 0)).toBe(total);
		expect(total).toBeGreaterThan(1000);
	});
});
