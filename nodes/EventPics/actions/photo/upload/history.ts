import { createHash } from 'node:crypto';

import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/** Entries the node's history keeps (two per file); past it n8n drops the oldest. */
const HISTORY_ENTRIES = 200_000;
/** From this many entries on, the output warns that the history is filling up. */
const HISTORY_WARN_AT = 160_000;

/** One history per workflow: its Keep New Files and Upload nodes ask and record the same entries. */
const SCOPE = 'workflow';
const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: HISTORY_ENTRIES };
/** Part of every entry's account: histories of another format never match. */
const HISTORY_FORMAT = 'eventpics-history-4';

export interface HistoryTiming {
	/**
	 * Least time between two records during the run, and between the check and the first: records
	 * of confirmed uploads go in batches, so that n8n stopped in the middle uploads again only what
	 * was in flight or confirmed within this time, while the store (which rewrites the whole history
	 * on each call) is written a few times a run, not per file.
	 */
	recordEveryMs: number;
	/**
	 * Pause before each recheck after the end-of-run record (a call of another execution that read the
	 * list before the record can take this long on a busy worker).
	 */
	recheckPauseMs: number;
	/** Rechecks at most. */
	rechecks: number;
}

export const HISTORY_TIMING: Readonly<HistoryTiming> = Object.freeze({
	recordEveryMs: 1000,
	recheckPauseMs: 1000,
	rechecks: 8,
});

export interface HistoryEnd {
	/** Keys of uploaded files that could not be recorded (the next run uploads them again). */
	unrecorded: string[];
	/** The node's history was empty when the run began: it knew no file uploaded before. */
	isNew: boolean;
	/** Set when the history is filling up. */
	warning?: string;
}

/** Where the files go: the Base URL and a hash of the API key, hashed together (the key itself is never stored). */
export function historyAccount(baseUrl: string, apiKey: string): string {
	const keyHash = createHash('sha256').update(apiKey).digest('hex');
	return createHash('sha256')
		.update(`${HISTORY_FORMAT}\n${new URL(baseUrl).href}\n${keyHash}`)
		.digest('base64url')
		.slice(0, 22);
}

/**
 * One run's use of the node's history in n8n's deduplication store (the one Remove Duplicates
 * uses, scope "node"). That store records whatever it is asked about, has no read-only question,
 * and reads, rebuilds and rewrites the node's whole list on every call, without a lock. So a file
 * has two entries, both naming the account: "checked", which a question may write at any time,
 * and "uploaded", written only after the storage's 2xx. A run makes a fixed number of calls,
 * whatever the number of files: the check (a second question, and rarely its undo, when files
 * were checked before), and at the end the record with the count beside it, the rechecks where
 * another execution may have written over it, and the removal of "checked" entries of files that
 * did not go up.
 */
export class RunHistory {
	private readonly account: string;

	private readonly shared: boolean;

	private keys: string[] = [];

	private readonly known = new Set<string>();

	private readonly done = new Set<string>();

	/** Entries the run's first question wrote ("checked" entries of files never checked before). */
	private addedByCheck = 0;

	/** Confirmed uploads not yet recorded, and the record under way or waiting for its time. */
	private pending: string[] = [];

	private recording: Promise<void> | undefined;

	/** The store call of a batch, while it runs. */
	private inCall: Promise<void> | undefined;

	private nextRecordAt = 0;

	private finished = false;

	/** Called with each key once a record holds it (the in-flight claims let go then). */
	onRecorded: (keys: string[]) => void = () => undefined;

	constructor(
		private readonly ctx: IExecuteFunctions,
		credential: { baseUrl: string; apiKey: string },
		private readonly timing: HistoryTiming = HISTORY_TIMING,
	) {
		this.account = historyAccount(credential.baseUrl, credential.apiKey);
		// production executions may run side by side; runs from the editor or `n8n execute` do not
		this.shared = !['manual', 'cli'].includes(ctx.getMode());
	}

	/** A file's key as its entries name it: with the account. */
	entryOf(key: string): string {
		return `${this.account}/${key}`;
	}

	private checkedEntry(key: string) {
		return `checked:${this.account}/${key}`;
	}

	private uploadedEntry(key: string) {
		return `uploaded:${this.account}/${key}`;
	}

	/**
	 * Which of `keys` were uploaded before. A file never checked has no "uploaded" entry: only the
	 * files checked before are asked about their "uploaded" entry, and what that question wrote
	 * (a file checked but never confirmed: a crash, a failure) is taken back in the next call.
	 */
	async check(keys: string[]): Promise<Set<string>> {
		this.keys = [...new Set(keys)];
		this.nextRecordAt = Date.now() + this.timing.recordEveryMs;
		if (this.keys.length === 0) return this.known;
		const checked = await this.ask(this.keys.map((key) => this.checkedEntry(key)));
		this.addedByCheck = checked.added.length;
		const asked = this.keys.filter((key) => checked.seen.has(this.checkedEntry(key)));
		if (asked.length === 0) return this.known;
		const uploaded = await this.ask(asked.map((key) => this.uploadedEntry(key)));
		if (uploaded.added.length > 0) await this.remove(uploaded.added);
		for (const key of asked) if (uploaded.seen.has(this.uploadedEntry(key))) this.known.add(key);
		return this.known;
	}

	/**
	 * The storage confirmed the file: its key is recorded with the next batch, at most `recordEveryMs`
	 * from now (or four times the last record's time, on a large history), and again at the end.
	 */
	uploaded(key: string): void {
		this.done.add(key);
		this.pending.push(key);
		this.recording ??= this.recordLater();
	}

	/** Records the pending keys once their time has come; a batch that fails waits for the end. */
	private async recordLater(): Promise<void> {
		const wait = this.nextRecordAt - Date.now();
		if (wait > 0) await sleep(wait);
		if (this.finished) return;
		const keys = this.pending.splice(0);
		const startedAt = Date.now();
		// a batch that fails is recorded at the end of the run with all the others
		this.inCall = this.ask(this.entriesOf(keys)).then(
			() => this.onRecorded(keys),
			() => undefined,
		);
		await this.inCall;
		this.inCall = undefined;
		const took = Date.now() - startedAt;
		this.nextRecordAt = Date.now() + Math.max(this.timing.recordEveryMs, 4 * took);
		this.recording = this.pending.length > 0 && !this.finished ? this.recordLater() : undefined;
	}

	private entriesOf(keys: string[]): string[] {
		return keys.flatMap((key) => [this.checkedEntry(key), this.uploadedEntry(key)]);
	}

	/**
	 * The end of the run: waits for a batch under way, counts the list first (whether the history was new when the run began, and
	 * how near its cap it is), records both entries of every uploaded file, checks again where
	 * needed, and removes the "checked" entries
	 * of files that did not go up (they would only cost the next run a question and its undo).
	 */
	async finish(): Promise<HistoryEnd> {
		// a batch in the store ends first (two writers of one list lose each other's entries); one still
		// waiting for its time is folded into the final record
		this.finished = true;
		await this.inCall;
		const done = [...this.done];
		const left = this.keys.filter((key) => !this.known.has(key) && !this.done.has(key));
		// counted before the record: the history was new when it holds only what this run's check wrote
		const count =
			done.length + left.length > 0 ? await this.count().catch(() => undefined) : undefined;
		const end: HistoryEnd = { unrecorded: [], isNew: count === this.addedByCheck };
		if (done.length > 0) {
			try {
				await this.record(done);
			} catch {
				end.unrecorded = done;
			}
			this.onRecorded(done);
		}
		if (left.length > 0) {
			await this.remove(left.map((key) => this.checkedEntry(key))).catch(() => undefined);
		}
		if (count !== undefined && count + 2 * done.length >= HISTORY_WARN_AT) {
			end.warning = fullWarning(Math.min(HISTORY_ENTRIES, count + 2 * done.length));
		}
		return end;
	}

	/**
	 * Writes both entries of each key. n8n rewrites the list without a lock: a call of another
	 * execution that read it before this record can write it back without them. A production run
	 * checks again a pause later (recording what is missing, which is the same call), and again
	 * while a recheck finds entries missing. A run from the editor or `n8n execute` rechecks only when the
	 * record had to add a "checked" entry, which the check wrote and only another writer removes.
	 */
	private async record(keys: string[]): Promise<void> {
		const entries = this.entriesOf(keys);
		const { added } = await this.ask(entries);
		let recheck = this.shared || added.some((entry) => entry.startsWith('checked:'));
		for (let round = 0; recheck && round < this.timing.rechecks; round++) {
			await sleep(this.timing.recheckPauseMs);
			recheck = await this.ask(entries).then(
				(again) => again.added.length > 0,
				() => false, // recorded once already
			);
		}
	}

	/** Which values were in the list; the others are in it now. */
	private async ask(values: string[]): Promise<{ seen: Set<string>; added: string[] }> {
		const result = await this.call(() =>
			this.ctx.helpers.checkProcessedAndRecord(values, SCOPE, STORE),
		);
		return { seen: new Set(result.processed.map(String)), added: result.new.map(String) };
	}

	private async remove(values: string[]): Promise<void> {
		await this.call(() => this.ctx.helpers.removeProcessed(values, SCOPE, STORE));
	}

	private async count(): Promise<number> {
		return await this.call(() => this.ctx.helpers.getProcessedDataCount(SCOPE, STORE));
	}

	/**
	 * Once more when a call fails: two processes that record the node's first entries at the same
	 * moment both insert its row, and the database refuses the second insert (the row then exists).
	 */
	private async call<T>(work: () => Promise<T>): Promise<T> {
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
		}
	}
}

function fullWarning(count: number): string {
	return `This workflow's history of uploaded files (Skip Files Uploaded Before) holds ${count.toLocaleString('en-US')} of ${HISTORY_ENTRIES.toLocaleString('en-US')} entries, two per file. When it is full, n8n forgets the oldest files, and such a file is uploaded again if it comes again. Give the workflow only files that may be new (for example move uploaded files out of the folder it reads, or put Keep New before the read).`;
}
