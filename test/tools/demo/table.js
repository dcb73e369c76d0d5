// @ts-check
'use strict';

/** A plain-text table for the terminal: columns sized to their widest cell, numbers right-aligned. */

/**
 * @param {string[]} headers
 * @param {Array<Array<string | number>>} rows
 * @param {{ right?: number[] }} [options] indexes of right-aligned columns
 * @returns {string}
 */
function formatTable(headers, rows, options = {}) {
	const right = new Set(options.right ?? []);
	const cells = rows.map((row) => row.map((cell) => String(cell)));
	const widths = headers.map((header, i) =>
		Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)),
	);
	/** @param {string[]} row */
	const line = (row) =>
		row
			.map((cell, i) => (right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
			.join('  ')
			.trimEnd();
	return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/**
 * @param {number} bytes
 * @returns {string}
 */
function humanSize(bytes) {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

module.exports = { formatTable, humanSize };
