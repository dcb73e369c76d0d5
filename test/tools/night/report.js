// @ts-check
'use strict';

/**
 * The night tier's tables (Markdown, so a report can quote them): the albums as issue 37 counts
 * them, the figures of the runs at 25/50/100 % of the folder, the drive import's runs, and the
 * targets.
 */

const MIB = 2 ** 20;

/** @param {number | null | undefined} bytes */
const mib = (bytes) =>
	bytes == null ? '-' : `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MiB`;
/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/**
 * @param {string[]} headers
 * @param {Array<Array<string | number>>} rows
 */
function table(headers, rows) {
	const cells = rows.map((row) => row.map(String));
	const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
	/** @param {string[]} row */
	const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
	return [
		line(headers),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...cells.map(line),
	].join('\n');
}

/**
 * The photos of an album result that `which` picks, by name (at most five, then how many more).
 * @param {import('./compare').AlbumComparison} album
 * @param {(result: import('./compare').PhotoResult) => boolean} which
 */
function namesOf(album, which) {
	const names = album.perPhoto.filter(which).map((r) => r.name);
	return names.length > 5
		? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`
		: names.join(', ');
}

/** @param {import('./night').NightResult[]} nights */
function albumsTable(nights) {
	return table(
		[
			'workflow',
			'binary data',
			'trigger',
			'photos',
			'stored once',
			'stored twice',
			'partial photo stored',
			'lost',
			'run at 100 %',
		],
		nights.map((n) => {
			const last = n.runs.find((r) => r.mark === 100);
			return [
				n.label.split(', ')[0],
				n.binaryMode,
				n.trigger,
				n.album.photos,
				n.album.once,
				n.album.twice ? `${n.album.twice} (${n.album.extraCopies} extra copies)` : '0',
				n.album.partial,
				n.album.lost ? `${n.album.lost}: ${namesOf(n.album, (r) => r.whole === 0)}` : '0',
				last ? `${seconds(last.ms)}, n8n ${mib(last.rss)}` : 'no saved run',
			];
		}),
	);
}

/** @param {import('./night').NightResult} night */
function runsTable(night) {
	return table(
		[
			'run at',
			'folder when it started',
			'time',
			"n8n's RSS (peak)",
			'bytes read (rchar)',
			'read from disk',
			'its binary data left',
			'binary folder (peak)',
		],
		night.runs.map((r) => [
			`${r.mark} %`,
			`${r.folderPhotos} photos, ${mib(r.folderBytes)}`,
			seconds(r.ms),
			mib(r.rss),
			mib(r.rchar),
			mib(r.readBytes),
			r.binary === null ? '-' : mib(r.binary),
			mib(r.binaryFolder),
		]),
	);
}

/** @param {import('./night').NightResult} night */
function nightSummary(night) {
	const kill = night.inFlightAtKill;
	return [
		...(night.guard ? [`STOPPED EARLY: ${night.guard}`] : []),
		`executions: ${night.night.executions} (${night.night.uploading} reached the Upload, ${night.night.notSuccessful} not successful); n8n down for ${seconds(night.night.downMs)} (its start took ${seconds(night.night.restartMs)})`,
		`killed at ${kill?.atPhotos ?? '?'} photos while "${kill?.name ?? '?'}" was being uploaded (${kill?.stored ? 'it is in the album' : 'not in the album from that upload'})`,
		`peaks over the night: n8n ${mib(night.peaks.rss)} RSS (${mib(night.peaks.mainRss)} its main process; ${mib(night.peaks.rssBefore50)} in the second quarter, ${mib(night.peaks.rssAfter50)} after half-way), binary data folder ${mib(night.peaks.binary)}, database ${mib(night.peaks.database)} at the end; the folder: ${night.folder.photos} photos, ${mib(night.folder.bytes)}`,
	].join('\n');
}

/** @param {import('./drive-import').DriveResult} drive */
function driveTable(drive) {
	const ms = (/** @type {number | undefined} */ v) => (v === undefined ? '-' : `${v} ms`);
	return table(
		[
			'run',
			'listed',
			'time',
			'list + split',
			'Keep New Files',
			'download',
			'Upload',
			"n8n's RSS (peak)",
			'bodies downloaded',
			'bytes downloaded',
			'stored',
		],
		drive.runs.map((r) => [
			r.label,
			r.listed,
			seconds(r.ms),
			ms((r.nodeMs['List files'] ?? 0) + (r.nodeMs['Each file'] ?? 0)),
			ms(r.nodeMs['Keep new files']),
			ms(r.nodeMs['Download file']),
			ms(r.nodeMs['Upload to EventPics']),
			mib(r.rss),
			r.downloads,
			mib(r.bytes),
			r.stored,
		]),
	);
}

/** @param {Array<{ part: string } & import('./targets').Target>} targets */
function targetsTable(targets) {
	return table(
		['', 'part', 'target', 'figures'],
		targets.map((t) => [
			t.holds === null ? 'n/a' : t.holds ? 'ok' : 'FAIL',
			t.part,
			t.target,
			t.detail,
		]),
	);
}

module.exports = {
	table,
	albumsTable,
	runsTable,
	nightSummary,
	driveTable,
	targetsTable,
	mib,
	seconds,
};
