// @ts-check
'use strict';

/**
 * Where the product's lines go: every TypeScript file of nodes/ and credentials/ (generated files
 * excluded) under the behaviour it serves, with `wc -l` lines, and the files the Upload operation
 * passes through (the relative imports of upload.operation.ts, followed to the end). A file counts
 * once, under its main behaviour. test/product/unit/sizes.test.cts checks that every product file is
 * listed here, so the table stays whole.
 *
 *   node test/tools/size/behaviours.js
 */
const fs = require('node:fs');
const path = require('node:path');
const { productFiles } = require('./functions');

const ROOT = path.join(__dirname, '..', '..', '..');
const E = 'nodes/EventPics/';
const UPLOAD = `${E}actions/photo/upload/`;

/** Behaviour: the files that hold it (paths from the repository's root). */
const BEHAVIOURS = {
	'upload pipeline (items, options, sources, output, PUT, stall watch, binary modes)': [
		`${E}actions/photo/upload.operation.ts`,
		`${UPLOAD}itemJobs.ts`,
		`${UPLOAD}uploadJob.ts`,
		`${UPLOAD}fileBody.ts`,
		`${UPLOAD}fileSources.ts`,
		`${UPLOAD}fileOutput.ts`,
		`${UPLOAD}uploadOptions.ts`,
		`${E}transport/binaryStore.ts`,
		`${E}helpers/binaryMode.ts`,
		`${E}transport/upload.ts`,
		`${E}transport/put.ts`,
		`${E}transport/watch.ts`,
		`${E}helpers/fileName.ts`,
		`${E}helpers/optionText.ts`,
		`${E}helpers/numberOption.ts`,
	],
	'API request, retries, errors and their advice': [
		`${E}transport/request.ts`,
		`${E}transport/api.ts`,
		`${E}transport/retry.ts`,
		`${E}transport/errors.ts`,
		`${UPLOAD}advice.ts`,
	],
	'EXIF and Taken At (JPEG, TIFF/RAW, HEIF/AVIF, PNG; time zones)': [
		`${E}helpers/exif/datetime.ts`,
		`${E}helpers/exif/heif.ts`,
		`${E}helpers/exif/index.ts`,
		`${E}helpers/exif/jpeg.ts`,
		`${E}helpers/exif/png.ts`,
		`${E}helpers/exif/source.ts`,
		`${E}helpers/exif/tiff.ts`,
		`${E}helpers/takenAt.ts`,
		`${E}helpers/timeZone.ts`,
		`${E}actions/photo/takenAt.description.ts`,
	],
	'node shell, parameter descriptions, AI tool': [
		`${E}EventPics.node.ts`,
		`${E}actions/router.ts`,
		`${E}actions/resources.ts`,
		`${E}actions/descriptions.ts`,
		`${E}actions/items.ts`,
		`${E}actions/album/Album.resource.ts`,
		`${E}actions/event/Event.resource.ts`,
		`${E}actions/photo/Photo.resource.ts`,
		`${E}actions/photo/options.description.ts`,
		`${E}actions/photo/upload.description.ts`,
		`${E}actions/tool.description.ts`,
	],
	'URL source and the address policy (redirect hops, egress filter, literal checks)': [
		`${E}transport/download.ts`,
		`${E}helpers/disposition.ts`,
		`${E}helpers/address.ts`,
		`${E}transport/egress.ts`,
		`${E}transport/uploadAddress.ts`,
	],
	'file type and content checks (sniffing, text and HTML refusal, media-type table, wholeness)': [
		`${UPLOAD}fileType.ts`,
		`${E}helpers/wholeness.ts`,
		`${E}helpers/mediaType.ts`,
		`${E}helpers/mediaTypeTable.ts`,
		`${E}helpers/sniff.ts`,
		`${E}helpers/contentLook.ts`,
		`${E}helpers/bytes.ts`,
	],
	'events and albums (operations, parsing, names, account)': [
		`${E}actions/account.ts`,
		`${E}actions/event/get.operation.ts`,
		`${E}actions/event/getAll.operation.ts`,
		`${E}actions/album/getAll.operation.ts`,
		`${E}helpers/events.ts`,
		`${E}helpers/eventJson.ts`,
		`${E}helpers/naming.ts`,
	],
	'Skip Files Uploaded Before, Keep New (history, batches, uploads in flight)': [
		`${UPLOAD}history.ts`,
		`${UPLOAD}skipPlan.ts`,
		`${UPLOAD}dedupe.ts`,
		`${UPLOAD}inFlight.ts`,
		`${E}actions/photo/keepNew.operation.ts`,
	],
	trigger: [
		'nodes/EventPicsTrigger/EventPicsTrigger.node.ts',
		'nodes/EventPicsTrigger/description.ts',
		'nodes/EventPicsTrigger/poll/memory.ts',
		'nodes/EventPicsTrigger/poll/poll.ts',
		'nodes/EventPicsTrigger/poll/pollFailure.ts',
		'nodes/EventPicsTrigger/poll/settings.ts',
		'nodes/EventPicsTrigger/poll/watched.ts',
	],
	'credential, its bounded test, Base URL rule': [
		'credentials/EventPicsApi.credentials.ts',
		`${E}methods/credentialTest.ts`,
		`${E}transport/credentialProbe.ts`,
		`${E}transport/credential.ts`,
		`${E}helpers/baseUrl.ts`,
	],
	'pacing and concurrency': [`${E}transport/pacing.ts`],
	'key redaction': [`${E}transport/redact.ts`, `${E}transport/secretForms.ts`],
	dropdowns: [
		`${E}methods/index.ts`,
		`${E}methods/loadEvents.ts`,
		`${E}methods/searchAlbums.ts`,
		`${E}methods/searchEvents.ts`,
	],
	'text helpers': [`${E}helpers/text.ts`, `${E}helpers/size.ts`],
};

/** @param {string} file */
const lines = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;

/** The product files a file imports, directly or not, itself included. @param {string} start */
function importClosure(start) {
	const seen = new Set();
	const stack = [start];
	while (stack.length > 0) {
		const file = /** @type {string} */ (stack.pop());
		if (seen.has(file)) continue;
		seen.add(file);
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		for (const [, target] of text.matchAll(/from '(\.[^']+)'/g)) {
			const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
			const found = [`${base}.ts`, `${base}/index.ts`].find((candidate) =>
				fs.existsSync(path.join(ROOT, candidate)),
			);
			if (found) stack.push(found);
		}
	}
	return [...seen];
}

/** The table's rows, the product's total, and files listed nowhere or listed but gone. */
function measureBehaviours() {
	// paths from the root, with forward slashes, as BEHAVIOURS lists them
	const files = productFiles().map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
	const listed = Object.values(BEHAVIOURS).flat();
	const rows = Object.entries(BEHAVIOURS).map(([behaviour, owned]) => ({
		behaviour,
		files: owned.length,
		lines: owned.filter((file) => files.includes(file)).reduce((sum, file) => sum + lines(file), 0),
	}));
	const upload = importClosure(`${E}actions/photo/upload.operation.ts`);
	return {
		rows: rows.sort((a, b) => b.lines - a.lines),
		total: files.reduce((sum, file) => sum + lines(file), 0),
		upload: { files: upload.length, lines: upload.reduce((sum, file) => sum + lines(file), 0) },
		unlisted: files.filter((file) => !listed.includes(file)),
		missing: listed.filter((file) => !files.includes(file)),
	};
}

module.exports = { measureBehaviours };

if (require.main === module) {
	const { rows, total, upload, unlisted, missing } = measureBehaviours();
	const out = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
	out('| behaviour | lines | files |\n|---|---|---|');
	for (const row of rows) out(`| ${row.behaviour} | ${row.lines} | ${row.files} |`);
	out(`| **product (nodes/ + credentials/)** | **${total}** | |`);
	out(`\nUpload operation's import closure: ${upload.files} files, ${upload.lines} lines`);
	if (unlisted.length > 0) out(`Not listed under a behaviour: ${unlisted.join(', ')}`);
	if (missing.length > 0) out(`Listed but gone: ${missing.join(', ')}`);
}
