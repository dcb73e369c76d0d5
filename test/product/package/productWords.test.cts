import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** Every TypeScript file of the shipped code: what n8n users read in dialogs, errors and hints. */
function productFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return productFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

describe('the product speaks to n8n users, not to this repository', () => {
	it.each(['emulator', 'npm run', 'npm test', 'CONTRIBUTING', 'test/tools'])(
		'no file of nodes/ or credentials/ mentions "%s"',
		(word) => {
			const files = [...productFiles('nodes'), ...productFiles('credentials')];
			expect(files.length).toBeGreaterThan(20);
			const hits = files.filter((file) =>
				readFileSync(join(ROOT, file), 'utf8').toLowerCase().includes(word.toLowerCase()),
			);
			expect(hits).toEqual([]);
		},
	);
});
