import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Entries the node's history keeps (two per file, see `checkedEntry`); past it n8n drops the oldest. */
export const HISTORY_ENTRIES = 200_000;
/** From this many entries on, the output warns that the history is filling up. */
export const HISTORY_WARN_AT = 160_000;

const SCOPE = 'node';
const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_ENTRIES };
/** Written with the first check: its absence means a history of the old one-entry kind (or none). */
export const VERSION_MARK = 'eventpics:history:2';

/**
 * The entry a check writes for a file: n8n's store records whatever it is asked about, so the
 * check asks about this one, which means "seen", never "uploaded". The file's own key (the entry
 * of older versions too) is written only after the storage answered 2xx.
 */
export const checkedEntry = (key: string) => `checked:${key}`;

/**
 * The node's list in n8n's deduplication store (the one Remove Duplicates uses), scope "node":
 * every call reads, parses, rebuilds and rewrites the whole list, without a lock.
 */
export class HistoryStore {
	/** The longest call so far, in ms (a call costs in proportion to the whole list). */
	slowestMs = 0;

	constructor(private readonly ctx: IExecuteFunctions) {}

	/** Which values were in the list; the others are in it now. */
	async ask(values: string[]): Promise<{ seen: Set<string>; added: string[] }> {
		const result = await this.call(
			async () => await this.ctx.helpers.checkProcessedAndRecord(values, SCOPE, STORE),
		);
		return { seen: new Set(result.processed.map(String)), added: result.new.map(String) };
	}

	async remove(values: string[]): Promise<void> {
		await this.call(async () => await this.ctx.helpers.removeProcessed(values, SCOPE, STORE));
	}

	/** Records the keys of uploaded files (and their "checked" entries); returns the entries that were missing. */
	async record(keys: string[]): Promise<string[]> {
		const entries = [VERSION_MARK, ...keys.flatMap((key) => [checkedEntry(key), key])];
		return (await this.ask(entries)).added;
	}

	async count(): Promise<number> {
		return await this.call(async () => await this.ctx.helpers.getProcessedDataCount(SCOPE, STORE));
	}

	/**
	 * Once more when a call fails: two processes that record the node's first entries at the same
	 * moment both insert its row, and the database refuses the second insert (the row then exists).
	 */
	private async call<T>(work: () => Promise<T>): Promise<T> {
		const started = Date.now();
		try {
			return await work();
		} catch {
			try {
				return await work();
			} catch (error) {
				throw new NodeOperationError(this.ctx.getNode(), error as Error, {
					message: `n8n's deduplication store failed (Skip Files Uploaded Before): ${(error as Error).message}`,
					description:
						"The node keeps its history of uploaded files in n8n's database. Check that n8n can write to its database, then run the workflow again.",
				});
			}
		} finally {
			this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
		}
	}
}

export function fullWarning(count: number): string {
	return `This node's history of uploaded files (Skip Files Uploaded Before) holds ${count.toLocaleString('en-US')} of ${HISTORY_ENTRIES.toLocaleString('en-US')} entries, two per file. When it is full, n8n forgets the oldest files, and such a file is uploaded again if it comes again. Give the node only files that may be new (for example move uploaded files out of the folder it reads).`;
}
