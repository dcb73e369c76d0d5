// @ts-check
'use strict';

/**
 * What must hold after a night or a drive import (issue 37). Each target is a name, whether it
 * holds (null: the night gave nothing to judge it by, which the report says), and the figures.
 *
 * Booth nights:
 *   the shipped example (and a workflow file)  every photo stored exactly once and whole: none
 *     twice, none partial, none lost, nothing else stored; n8n's memory does not grow with the
 *     folder; the binary data a run keeps does not grow with the folder
 *   the schedule shape (a user's own)  no partial photo, no photo twice (beyond the one whose
 *     upload was in flight at the kill), none lost, nothing else stored
 * The drive import: a run with nothing new downloads no file body and takes at most 1.5 times a
 * run over an empty folder (medians); every file arrives once and whole.
 *
 * "Does not grow with the folder": n8n's memory in the run at 100 % stays within the larger of the
 * runs at 25 % and 50 % plus the larger of 192 MiB and a quarter of what the folder grew by since
 * (the run at 50 % is the restarted n8n's, like the one at 100 %: a fresh n8n's catch-up leaves it
 * some 300 MiB larger, which V8 keeps, whatever the folder); over
 * the second half of the night (the restart's catch-up included) n8n's peak memory stays within
 * the peak of the second quarter plus the larger of 384 MiB (what a fresh start's first runs
 * cost) and a quarter of the folder's growth; n8n's binary data folder (its
 * `.n8n/storage`), within its own peak of the second quarter plus the photos written while n8n was
 * down (the catch-up reads them at once) plus the larger of four photos and a quarter of that
 * growth. (A saved execution keeps its binary data until it is pruned, and one that is not saved
 * keeps it until the next hard-delete pruning, every 15 minutes by default: both make the folder
 * grow with the night; the docs' booth settings prune every minute, which night.js compresses as
 * it compresses the night.)
 */

const MIB = 2 ** 20;
const RSS_SLACK = 192 * MIB;
/**
 * What a fresh n8n's first burst of runs costs whatever their number: measured on the event-driven
 * example, the catch-up after the restart raised the peak by 320 MiB with 15 photos to look at and
 * by 400 MiB with 150 (n8n 2.41.1, 4 runs at a time).
 */
const RESTART_SLACK = 384 * MIB;

/**
 * @typedef {{ target: string, holds: boolean | null, detail: string }} Target
 */

/** @param {number} bytes */
const mib = (bytes) => `${(bytes / MIB).toFixed(0)} MiB`;

/**
 * @param {import('./night').NightResult} night
 * @param {string} shape
 * @param {boolean} [judgeGrowth] false: the targets on growth with the folder are reported, not judged
 *   (holds null: the short night's folder grows too little to tell growth from n8n's own swings)
 * @returns {Target[]}
 */
function nightTargets(night, shape, judgeGrowth = true) {
	const { album } = night;
	const inFlight = night.inFlightAtKill?.name;
	const twiceBeyondKill = album.perPhoto.filter(
		(p) => p.whole > (p.name === inFlight ? 2 : 1),
	).length;
	/** @type {Target[]} */
	const targets = [];
	const add = (
		/** @type {string} */ target,
		/** @type {boolean | null} */ holds,
		/** @type {string} */ detail,
	) => targets.push({ target, holds, detail });
	if (shape === 'schedule') {
		add('no partial photo stored', album.partial === 0, `${album.partial} partial`);
		add(
			'no photo stored twice (beyond the one in flight at the kill)',
			twiceBeyondKill === 0,
			`${album.twice} twice (${album.extraCopies} extra copies); in flight at the kill: ${inFlight ?? 'none'}`,
		);
	} else {
		add(
			'every photo stored exactly once and whole',
			album.once === album.photos,
			`${album.once} of ${album.photos} once, ${album.twice} twice (${album.extraCopies} extra copies), ${album.partial} partial`,
		);
		add('no partial photo stored', album.partial === 0, `${album.partial} partial`);
	}
	add('no photo lost', album.lost === 0, `${album.lost} lost`);
	add(
		'n8n ran the whole night, within the guards (memory, binary data folder, free disk)',
		night.guard === undefined,
		night.guard ?? 'yes',
	);
	add(
		'nothing else stored in the album',
		album.strays.length === 0,
		album.strays.length ? `stored: ${album.strays.slice(0, 3).join(', ')}` : 'none',
	);
	if (shape === 'schedule') return targets;
	/** A growth target's verdict, or null when this night does not judge growth. */
	const judged = (/** @type {boolean | null} */ holds) =>
		judgeGrowth || holds === null ? holds : null;

	const earlier = night.runs.filter((r) => r.mark === 25 || r.mark === 50);
	const run100 = night.runs.find((r) => r.mark === 100);
	const base = earlier.reduce((a, b) => (b.rss > a.rss ? b : a), earlier[0]);
	if (base && run100) {
		const allowedRun = base.rss + Math.max(RSS_SLACK, (run100.folderBytes - base.folderBytes) / 4);
		add(
			"a run's memory does not grow with the folder (run at 100 % against 25 % and 50 %)",
			judged(run100.rss <= allowedRun),
			`${mib(run100.rss)} against ${mib(base.rss)} at ${base.mark} %, allowed ${mib(allowedRun)}`,
		);
	} else
		add(
			"a run's memory does not grow with the folder (run at 100 % against 25 % and 50 %)",
			null,
			'no such runs',
		);
	const grew = night.folder.bytes - night.folder.bytesAt50;
	const allowed = night.peaks.rssBefore50 + Math.max(RESTART_SLACK, grew / 4);
	add(
		"n8n's memory after half-way, the restart's catch-up included, does not grow with the folder",
		judged(night.peaks.rssBefore50 > 0 ? night.peaks.rssAfter50 <= allowed : null),
		`peak after half-way ${mib(night.peaks.rssAfter50)}, second quarter ${mib(night.peaks.rssBefore50)}, allowed ${mib(allowed)} (folder +${mib(grew)})`,
	);
	const { binaryBefore50, binaryAfter50 } = night.peaks;
	// after the restart the trigger reports the photos written while n8n was down, read at once
	const { bytesWhileDown } = night.folder;
	const allowedFolder =
		binaryBefore50 + bytesWhileDown + Math.max(4 * night.night.largestPhoto, grew / 4);
	add(
		"n8n's binary data folder does not grow with the folder",
		judged(binaryAfter50 <= allowedFolder),
		night.binaryMode === 'default'
			? `memory mode: peak ${mib(night.peaks.binary)}`
			: `peak after half-way ${mib(binaryAfter50)}, second quarter ${mib(binaryBefore50)}, allowed ${mib(allowedFolder)} (written while n8n was down ${mib(bytesWhileDown)})`,
	);
	return targets;
}

/**
 * @param {import('./drive-import').DriveResult} drive
 * @param {(values: number[]) => number} median
 * @returns {Target[]}
 */
function driveTargets(drive, median) {
	const nothingNew = drive.runs.filter((r) => r.kind === 'nothing new');
	const empty = drive.runs.filter((r) => r.kind === 'empty');
	const last = nothingNew.filter((r) => r.listed === drive.files);
	const ratio = median(last.map((r) => r.ms)) / Math.max(1, median(empty.map((r) => r.ms)));
	const downloads = nothingNew.reduce((sum, r) => sum + r.downloads, 0);
	const listing = (/** @type {import('./drive-import').DriveRun} */ r) =>
		(r.nodeMs?.['List files'] ?? 0) + (r.nodeMs?.['Each file'] ?? 0);
	return [
		{
			target: 'a run with nothing new downloads no file body',
			holds: downloads === 0,
			detail: `${downloads} bodies over ${nothingNew.length} runs with nothing new`,
		},
		{
			target: `a run with nothing new of ${drive.files} files takes at most 1.5x a run over an empty folder`,
			holds: ratio <= 1.5,
			detail: `median ${(median(last.map((r) => r.ms)) / 1000).toFixed(2)} s vs ${(median(empty.map((r) => r.ms)) / 1000).toFixed(2)} s: ${ratio.toFixed(2)}x (of it Keep New Files ${median(last.map((r) => r.nodeMs?.['Keep new files'] ?? 0))} ms, the listing and split ${median(last.map(listing))} ms against ${median(empty.map(listing))} ms)`,
		},
		{
			target: 'every drive file stored once',
			holds: drive.album.distinct === drive.files && drive.album.twice === 0,
			detail: `${drive.album.distinct} of ${drive.files} stored, ${drive.album.twice} extra copies`,
		},
	];
}

module.exports = { nightTargets, driveTargets };
