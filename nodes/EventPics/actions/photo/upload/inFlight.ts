/**
 * The uploads of this n8n process that executions of one workflow must not repeat, by history entry
 * (workflow, account, event, album, file key): those in flight, and those uploaded but maybe not yet
 * known to an execution that checked the history before they were recorded. A file that another
 * execution (or an earlier item of the same run) is uploading waits for that upload, and is skipped
 * once it arrived. The one state the node keeps across executions, deliberately: n8n's stores have no
 * lock, and overlapping runs of a schedule or a trigger in one process are where doubles came from.
 * An entry lives while its upload is in flight, then while a run that checked the history before the
 * upload was recorded still runs: it never outlives the executions that could use it.
 */

/** Who holds a file: the execution and item uploading it, and whether it arrived. */
export interface Claim {
	executionId: string;
	itemIndex: number;
	/** Resolves true once the storage confirmed the file, false when its upload did not happen. */
	arrived: Promise<boolean>;
	/** When the history recorded it (Date.now()); until then every run must see the claim. */
	recordedAt?: number;
}

const claims = new Map<string, Claim>();

/** Where a history entry is claimed: per workflow, as the history is. */
export const claimKey = (workflowId: string | undefined, entry: string) =>
	`${workflowId ?? ''}\u0000${entry}`;
/** The running executions with Skip Files Uploaded Before, each with when it checked the history. */
const runs = new Map<symbol, number>();

/** Drops what no running execution can still need: uploads recorded before every running check. */
function prune(): void {
	const oldestCheck = Math.min(...runs.values());
	for (const [key, claim] of claims)
		if (claim.recordedAt !== undefined && claim.recordedAt < oldestCheck) claims.delete(key);
}

/** A run that checks the history now: it sees every claim recorded from now on. */
export function joinRuns(): { leave: () => void } {
	const run = Symbol('run');
	runs.set(run, Date.now());
	return {
		leave: () => {
			runs.delete(run);
			prune();
		},
	};
}

/** The claim on `key`, if any execution of this process holds one. */
export function claimOf(key: string): Claim | undefined {
	return claims.get(key);
}

/**
 * Claims `key` for this upload; `settle` says whether the file arrived (a failed claim is let go at
 * once, so the next one tries), `recorded` that the history holds it.
 */
export function claim(
	key: string,
	executionId: string,
	itemIndex: number,
): { settle: (arrived: boolean) => void; recorded: () => void } {
	let settle!: (arrived: boolean) => void;
	const entry: Claim = {
		executionId,
		itemIndex,
		arrived: new Promise<boolean>((resolve) => (settle = resolve)),
	};
	claims.set(key, entry);
	return {
		settle: (arrived) => {
			settle(arrived);
			if (!arrived && claims.get(key) === entry) claims.delete(key);
		},
		recorded: () => {
			entry.recordedAt = Date.now();
			prune();
		},
	};
}
