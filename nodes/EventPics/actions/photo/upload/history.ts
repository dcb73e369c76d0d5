import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	checkedEntry,
	fullWarning,
	HISTORY_ENTRIES,
	HISTORY_WARN_AT,
	HistoryStore,
	VERSION_MARK,
} from './historyStore';

export interface HistoryTiming {
	/** Records of finished files while the run goes on: at most one per this long ... */
	batchEveryMs: number;
	/** ... and per this many times the longest store call so far (they cost as much). */
	batchCallFactor: number;
	/**
	 * The look after the end-of-run record waits this long, in runs that may meet another writer of
	 * the history (a call that read the list before the record can take this long on a busy worker).
	 */
	lookPauseMs: number;
	/** Pause before looking again after a look found keys missing (another writer is at work). */
	missingPauseMs: number;
	/** Looks at most. */
	rounds: number;
}

export const HISTORY_TIMING: Readonly<HistoryTiming> = Object.freeze({
	batchEveryMs: 1000,
	batchCallFactor: 10,
	lookPauseMs: 1000,
	missingPauseMs: 1000,
	rounds: 8,
});

export interface HistoryEnd {
	/** Keys of uploaded files that could not be recorded (the next run uploads them again). */
	unrecorded: string[];
	/** Set when the history is filling up. */
	warning?: string;
}

/**
 * One run's use of the node's history. Every store call costs in proportion to the whole history,
 * so the run makes a fixed number of them whatever the number of files: a check (a second one when
 * files were seen before), a record now and then while files finish (at most one a second, and per
 * ten times the longest call), and at the end a record (with a count beside it) and, where another
 * execution may write the history too, a look.
 */
export class RunHistory {
	private readonly store: HistoryStore;

	private readonly done = new Set<string>();

	private readonly pending = new Set<string>();

	/** Keys a batch recorded. */
	private readonly batched = new Set<string>();

	private readonly notDone = new Set<string>();

	private inFlight: Promise<void> | undefined;

	private lastBatchAt = Number.NEGATIVE_INFINITY;

	/**
	 * Whether other executions of the workflow may write the history at the same time: every
	 * production execution (schedule, webhook, form, sub-workflow, queue-mode workers). Runs from
	 * the editor or `n8n execute` are started one at a time; they look only when their own record
	 * shows that something else wrote the history during the run.
	 */
	private readonly shared: boolean;

	constructor(
		ctx: IExecuteFunctions,
		private readonly timing: HistoryTiming = HISTORY_TIMING,
		private readonly now: () => number = Date.now,
	) {
		this.store = new HistoryStore(ctx);
		this.shared = !['manual', 'cli'].includes(ctx.getMode());
	}

	/**
	 * Which of `keys` were uploaded before. One call asks about every key's "checked" entry; the
	 * keys seen before are then asked about their own entry, and what that call wrote for files not
	 * confirmed is removed at once. A crash leaves "checked" entries behind, never a key.
	 */
	async check(keys: string[]): Promise<Set<string>> {
		const unique = [...new Set(keys)];
		const { seen } = await this.store.ask([VERSION_MARK, ...unique.map(checkedEntry)]);
		// A history of an older version holds uploaded keys without their "checked" entry: the mark
		// says it is not one. At the cap n8n drops the mark (the oldest entry, after every key of an
		// older version); a "checked" entry seen says so too, and spares the question about new keys.
		const marked = seen.has(VERSION_MARK) || unique.some((key) => seen.has(checkedEntry(key)));
		const asked = marked ? unique.filter((key) => seen.has(checkedEntry(key))) : unique;
		let known = new Set<string>();
		if (asked.length > 0) {
			const uploaded = await this.store.ask(asked);
			if (uploaded.added.length > 0) await this.store.remove(uploaded.added);
			known = uploaded.seen;
		}
		for (const key of unique) if (!known.has(key)) this.notDone.add(key);
		this.lastBatchAt = this.now(); // the first batch comes a while after the check
		return known;
	}

	/** The storage confirmed the file: its key is recorded with the next batch or at the end. */
	uploaded(key: string): void {
		this.notDone.delete(key);
		this.done.add(key);
		this.pending.add(key);
		const every = Math.max(
			this.timing.batchEveryMs,
			this.timing.batchCallFactor * this.store.slowestMs,
		);
		if (this.inFlight || this.now() - this.lastBatchAt < every) return;
		this.lastBatchAt = this.now();
		const batch = [...this.pending];
		this.pending.clear();
		// a batch that fails is recorded with the end-of-run record, which holds every key
		this.inFlight = this.store
			.record(batch)
			.then(
				() => batch.forEach((k) => this.batched.add(k)),
				() => undefined,
			)
			.finally(() => (this.inFlight = undefined));
	}

	/**
	 * The end of the run: records every key of the run (the count for the warning near the cap is
	 * read beside it, its reading overlapping the record's writing). n8n rewrites the list without a
	 * lock, so a call of another execution that read it before this record can write it back
	 * without these keys; such a call can take up to about a second on a busy worker. Where that can
	 * happen (production executions), or where the record found that something else wrote over this
	 * run's earlier entries, the node looks again a second later: keys found missing are recorded
	 * again and looked for a second later. The "checked" entries of files not uploaded are removed.
	 */
	async finish(): Promise<HistoryEnd> {
		await this.inFlight;
		const end: HistoryEnd = { unrecorded: [] };
		// files were to go up (uploaded now, or left): the count, for the warning
		const uploading = this.done.size + this.notDone.size > 0;
		const counted = uploading ? this.store.count().catch(() => undefined) : undefined;
		const all = [...this.done];
		if (all.length > 0) {
			try {
				const added = await this.store.record(all);
				if (this.shared || this.overwritten(added)) await this.confirm(all);
			} catch {
				end.unrecorded = all.filter((key) => !this.batched.has(key));
			}
		}
		if (this.notDone.size > 0) {
			// left behind, they would only cost the next run a question and its undo
			await this.store.remove([...this.notDone].map(checkedEntry)).catch(() => undefined);
		}
		const count = await counted;
		if (count !== undefined && count + 2 * all.length >= HISTORY_WARN_AT) {
			end.warning = fullWarning(Math.min(HISTORY_ENTRIES, count + 2 * all.length));
		}
		return end;
	}

	/**
	 * Whether the end-of-run record had to add entries this run wrote before: the "checked" entry of
	 * an uploaded file (written by the check) or the key of a file a batch recorded. Only another
	 * writer removes them (the history's mark is left out: the cap drops it as the oldest entry).
	 */
	private overwritten(added: string[]): boolean {
		const expected = new Set([...this.done].filter((key) => !this.batched.has(key)));
		return added.some((entry) => entry !== VERSION_MARK && !expected.has(entry));
	}

	/** Looks for the keys a pause after the record, records the missing ones again, until a look finds none. */
	private async confirm(keys: string[]): Promise<void> {
		for (let round = 0; round < this.timing.rounds; round++) {
			await sleep(round === 0 ? this.timing.lookPauseMs : this.timing.missingPauseMs);
			const missing = await this.store.record(keys).catch(() => []); // recorded once already
			if (missing.length === 0) return;
		}
	}
}
