import { createHash } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/**
 * The workflow's history of uploads (Skip Files Uploaded Before, Keep New) in n8n's deduplication
 * store, scope "workflow", and this process's uploads in flight. The store records whatever it is
 * asked (no read-only question) and rewrites its list on each call without a lock. So a file has two
 * entries: "checked", which a question may write, and "uploaded", written after the storage's 2xx.
 */

/** Entries kept (two per file); past them n8n drops the oldest. From HISTORY_WARN_AT on, the output warns. */
const HISTORY_ENTRIES = 200_000;
const HISTORY_WARN_AT = 160_000;
const STORE = { mode: 'entries' as const, maxEntries: HISTORY_ENTRIES };
/** Part of every entry's account: histories of another format never match. */
const FORMAT = 'eventpics-history-4';
/**
 * Records during the run, at least RECORD_EVERY_MS and RECORD_SPACING times the last call apart: a kill
 * uploads again only what was confirmed within it, the store is written a few times a run, not per file.
 */
const RECORD_EVERY_MS = 1000;
const RECORD_SPACING = 10;
const RECHECK_PAUSE_MS = 1000;
const RECHECKS = 8;
const WAIT_STEP_MS = 200;

export const historyKey = (linkId: string, albumId: string | undefined, fileKey: string) =>
	`${linkId}/${albumId ?? ''}/${fileKey}`;

interface Claim {
	executionId: string;
	itemIndex: number;
	arrived: Promise<boolean>;
	recordedAt?: number;
}

/**
 * This process's claims by workflow and entry, kept across executions on purpose (overlapping runs
 * uploaded doubles): while in flight, then until no run that checked before it was recorded runs.
 */
const claims = new Map<string, Claim>();
/** The running executions that checked the history, each with when it did. */
const runs = new Map<RunHistory, number>();

/**
 * The store's calls of this process, one at a time: the check writes an "uploaded" entry for a moment,
 * which a call that read the list meanwhile would write back for good (a file cut short by a kill would
 * never go up). Across queue-mode processes this remains.
 */
let storeTurn: Promise<unknown> = Promise.resolve();

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
	const turn = storeTurn.then(work, work);
	storeTurn = turn.catch(() => undefined);
	return await turn;
}

function prune(): void {
	const oldestCheck = Math.min(...runs.values());
	for (const [key, claim] of claims)
		if (claim.recordedAt !== undefined && claim.recordedAt < oldestCheck) claims.delete(key);
}

/** The Base URL and a hash of the API key, hashed together (never the key). */
export function historyAccount(baseUrl: string, apiKey: string): string {
	const keyHash = createHash('sha256').update(apiKey).digest('hex');
	return createHash('sha256')
		.update(`${FORMAT}\n${new URL(baseUrl).href}\n${keyHash}`)
		.digest('base64url')
		.slice(0, 22);
}

type Caller = <T>(work: () => Promise<T>) => Promise<T>;

/** One run's use of the workflow's history and of this process's claims. */
export class RunHistory {
	private readonly account: string;
	/** Production executions may run side by side; runs from the editor or `n8n execute` do not. */
	private readonly shared: boolean;
	private keys: string[] = [];
	private readonly known = new Set<string>();
	private readonly done = new Set<string>();
	private readonly owned = new Map<string, Claim>();
	private addedByCheck = 0;
	private pending: string[] = [];
	private recording: Promise<void> | undefined;
	private inCall: Promise<void> | undefined;
	private nextRecordAt = 0;
	private finished = false;

	constructor(
		private readonly ctx: IExecuteFunctions,
		credential: { baseUrl: string; apiKey: string },
	) {
		this.account = historyAccount(credential.baseUrl, credential.apiKey);
		this.shared = !['manual', 'cli'].includes(ctx.getMode());
	}

	private entry = (kind: 'checked' | 'uploaded', key: string) => `${kind}:${this.account}/${key}`;
	private entries = (keys: string[], ...kinds: Array<'checked' | 'uploaded'>) =>
		keys.flatMap((key) => kinds.map((kind) => this.entry(kind, key)));
	private where = (key: string) => `${this.ctx.getWorkflow().id ?? ''}\u0000${this.account}/${key}`;

	/** Which keys were uploaded before, in one turn; what asking "uploaded" wrote is taken back. */
	async check(keys: string[]): Promise<Set<string>> {
		runs.set(this, Date.now());
		this.keys = [...new Set(keys)];
		return await oneAtATime(async () => {
			const startedAt = Date.now();
			if (this.keys.length > 0) await this.findKnown();
			this.nextRecordAt = this.spaced(startedAt);
			return this.known;
		}).catch((error: unknown) => {
			this.leave();
			throw error;
		});
	}

	private async findKnown(): Promise<void> {
		const checked = await this.ask(this.entries(this.keys, 'checked'), this.attempt);
		this.addedByCheck = checked.added.length;
		const asked = this.keys.filter((key) => checked.seen.has(this.entry('checked', key)));
		if (asked.length === 0) return;
		const uploaded = await this.ask(this.entries(asked, 'uploaded'), this.attempt);
		if (uploaded.added.length > 0) await this.forget(uploaded.added, this.attempt);
		for (const key of asked)
			if (uploaded.seen.has(this.entry('uploaded', key))) this.known.add(key);
	}

	private spaced = (startedAt: number) =>
		Date.now() + Math.max(RECORD_EVERY_MS, RECORD_SPACING * (Date.now() - startedAt));

	/** Who in this process is uploading `key` (or uploaded it, not yet in the history). */
	claimOf = (key: string) => claims.get(this.where(key));

	/** Claims `key` for an item of this run; the function returned says, once, whether the file arrived. */
	claim(key: string, itemIndex: number): (arrived: boolean) => void {
		let settle!: (arrived: boolean) => void;
		const arrived = new Promise<boolean>((resolve) => (settle = resolve));
		const claim: Claim = { executionId: this.ctx.getExecutionId(), itemIndex, arrived };
		const where = this.where(key);
		claims.set(where, claim);
		this.owned.set(key, claim);
		let settled = false;
		return (arrived) => {
			if (settled) return;
			settled = true;
			settle(arrived);
			if (!arrived && claims.get(where) === claim) claims.delete(where);
			if (!arrived) return;
			// recorded with the next batch, and at the end
			this.done.add(key);
			this.pending.push(key);
			this.recording ??= this.recordLater();
		};
	}

	/** `keys` are done, so claimed by this run (claim() set `owned` before it can add to `done`). */
	private recorded(keys: string[]): void {
		for (const key of keys) this.owned.get(key)!.recordedAt = Date.now();
		prune();
	}

	private async recordLater(): Promise<void> {
		// in short steps, so that no timer outlives the run once it has finished (its end records all)
		while (!this.finished && Date.now() < this.nextRecordAt)
			await sleep(Math.min(WAIT_STEP_MS, this.nextRecordAt - Date.now()));
		if (this.finished) return;
		const keys = this.pending.splice(0);
		const startedAt = Date.now();
		// a batch that fails is recorded at the end of the run with all the others
		this.inCall = this.ask(this.entries(keys, 'checked', 'uploaded'))
			.then(() => this.recorded(keys))
			.catch(() => undefined);
		await this.inCall;
		this.nextRecordAt = this.spaced(startedAt);
		this.recording = this.pending.length > 0 && !this.finished ? this.recordLater() : undefined;
	}

	/** After `check`: the history held nothing but what the check wrote (this run began it). */
	async began(): Promise<boolean> {
		// a key the check found was there before it: the history did not begin now (no need to count)
		if (this.keys.length === 0 || this.addedByCheck < this.keys.length) return false;
		return (await this.count().catch(() => -1)) === this.addedByCheck;
	}

	/** The run no longer needs others' claims (finish does it; Keep New, which only asks, itself). */
	leave(): void {
		runs.delete(this);
		prune();
	}

	/** The end: counts the list (new? near its cap?), records the uploaded, takes back others' "checked". */
	async finish() {
		this.finished = true;
		await this.inCall;
		try {
			const done = [...this.done];
			const left = this.keys.filter((key) => !this.known.has(key) && !this.done.has(key));
			const count =
				done.length + left.length > 0 ? await this.count().catch(() => undefined) : undefined;
			const recording = done.length > 0 ? this.record(done) : Promise.resolve();
			const unrecorded = await recording.then((): string[] => []).catch(() => done);
			this.recorded(done);
			if (left.length > 0) await this.forget(this.entries(left, 'checked')).catch(() => undefined);
			const entries = Math.min(HISTORY_ENTRIES, (count ?? 0) + 2 * done.length);
			return {
				unrecorded,
				isNew: count === this.addedByCheck,
				warning:
					count !== undefined && entries >= HISTORY_WARN_AT
						? `This workflow's history of uploaded files (Skip Files Uploaded Before) holds ${entries.toLocaleString('en-US')} of ${HISTORY_ENTRIES.toLocaleString('en-US')} entries, two per file. When it is full, n8n forgets the oldest files, and such a file is uploaded again if it comes again. Give the workflow only files that may be new (for example put Keep New before the read, or move uploaded files out of the folder it reads).`
						: undefined,
			};
		} finally {
			this.leave();
		}
	}

	/**
	 * Writes both entries of each key. Another execution that read the list before can write it back
	 * without them: a production run looks again (recording what is missing) while entries are missing;
	 * an editor or CLI run only when it had to add a "checked" entry, which only another writer removes.
	 */
	private async record(keys: string[]): Promise<void> {
		const entries = this.entries(keys, 'checked', 'uploaded');
		const { added } = await this.ask(entries);
		let again = this.shared || added.some((entry) => entry.startsWith('checked:'));
		for (let round = 0; again && round < RECHECKS; round++) {
			await sleep(RECHECK_PAUSE_MS);
			again = await this.ask(entries)
				.then((looked) => looked.added.length > 0)
				.catch(() => false);
		}
	}

	private async ask(values: string[], how: Caller = this.call) {
		const result = await how(() =>
			this.ctx.helpers.checkProcessedAndRecord(values, 'workflow', STORE),
		);
		return { seen: new Set(result.processed.map(String)), added: result.new.map(String) };
	}

	private forget = async (values: string[], how: Caller = this.call) =>
		await how(() => this.ctx.helpers.removeProcessed(values, 'workflow', STORE));
	private count = async () =>
		await this.call(() => this.ctx.helpers.getProcessedDataCount('workflow', STORE));
	private readonly call: Caller = async (work) =>
		await oneAtATime(async () => await this.attempt(work));

	/** Once more on failure (two processes' first records both insert the row), then in words. */
	private readonly attempt: Caller = async (work) => {
		try {
			return await work();
		} catch {
			try {
				return await work();
			} catch (error) {
				const conflict = /incompatible setting/.test((error as Error).message);
				throw new NodeOperationError(this.ctx.getNode(), error as Error, {
					message: conflict
						? "This workflow's deduplication history is kept in another mode by another node (Skip Files Uploaded Before)"
						: `n8n's deduplication store failed (Skip Files Uploaded Before): ${(error as Error).message}`,
					description: conflict
						? 'Skip Files Uploaded Before keeps its history in n8n\'s deduplication store with the scope "Workflow", which a Remove Duplicates node of this workflow uses in another mode ("Keep Items Where"). Set that node\'s Scope to "Node", or clear its history with its "Clear Deduplication History" operation.'
						: "The node keeps its history of uploaded files in n8n's database. Check that n8n can write to its database, then run the workflow again.",
				});
			}
		}
	};
}
