// @ts-check
'use strict';

/**
 * Binary data for harness workflows.
 *
 * Three kinds of binary can be put on an input item:
 * - `binaryFromBuffer(buffer, opts)` / `binaryFromFile(path, opts)`: a *spec* that the harness
 *   start node turns into a stored binary during the run with the node helper
 *   `this.helpers.prepareBinaryData` (the real BinaryDataService, filesystem mode), exactly as an
 *   n8n node that reads a file does. The item the node under test receives has an `id`
 *   (`filesystem-v2:...`) and `data: 'filesystem-v2'`.
 * - `inlineBinary(buffer, opts)`: an IBinaryData with base64 `data` and no `id`, as in pinned data
 *   and old executions; passed through unchanged.
 * - `storeBinary(bufferOrPath, opts)`: stores through BinaryDataService right now, outside any run,
 *   and returns the IBinaryData (with `id`); usable in pinData or input items, passed through.
 * `readBinary(binaryData)` reads any of them back as a Buffer.
 */

const fs = require('node:fs');
const path = require('node:path');
const { BINARY_ENCODING, fileTypeFromMimeType } = require('n8n-workflow');
const { initEngine, getBinaryDataService } = require('./engine');

/** Marker property of a binary spec that the start node must materialise. */
const SPEC = '__harnessBinarySpec';

/**
 * @typedef {{ fileName?: string, mimeType?: string }} BinaryOptions
 *   `mimeType` omitted: n8n derives it from the file name's extension, and for a Buffer without a
 *   known extension it sniffs the bytes with `file-type` (ESM: under jest this needs
 *   `node --experimental-vm-modules`).
 * @typedef {{ [SPEC]: true, kind: 'buffer', buffer: Buffer } & BinaryOptions
 *   | { [SPEC]: true, kind: 'file', filePath: string } & BinaryOptions} BinarySpec
 * @typedef {import('n8n-workflow').IBinaryData} IBinaryData
 */

/**
 * @param {Buffer | Uint8Array | string} buffer bytes (a string is taken as UTF-8)
 * @param {BinaryOptions} [options]
 * @returns {BinarySpec}
 */
function binaryFromBuffer(buffer, options = {}) {
	const bytes = typeof buffer === 'string' ? Buffer.from(buffer, 'utf8') : Buffer.from(buffer);
	return { [SPEC]: true, kind: 'buffer', buffer: bytes, ...options };
}

/**
 * @param {string} filePath streamed from disk when the start node runs (never read whole)
 * @param {BinaryOptions} [options] `fileName` overrides the file's base name
 * @returns {BinarySpec}
 */
function binaryFromFile(filePath, options = {}) {
	return { [SPEC]: true, kind: 'file', filePath: path.resolve(filePath), ...options };
}

/**
 * @param {unknown} value
 * @returns {value is BinarySpec}
 */
function isBinarySpec(value) {
	return typeof value === 'object' && value !== null && SPEC in value;
}

/** @returns {(bytes: number) => string} n8n's own size formatter (pretty-bytes, as n8n-core uses it) */
function prettyBytesFn() {
	const fromCore = require.resolve('pretty-bytes', { paths: [path.dirname(require.resolve('n8n-core'))] });
	return require(fromCore);
}

/**
 * An inline binary (base64 in `data`, no `id`), shaped like the ones n8n keeps in pinned data.
 * @param {Buffer | Uint8Array | string} buffer
 * @param {BinaryOptions} [options]
 * @returns {IBinaryData}
 */
function inlineBinary(buffer, options = {}) {
	const bytes = typeof buffer === 'string' ? Buffer.from(buffer, 'utf8') : Buffer.from(buffer);
	const mimeType = options.mimeType ?? 'application/octet-stream';
	/** @type {IBinaryData} */
	const data = {
		data: bytes.toString(BINARY_ENCODING),
		mimeType,
		fileType: fileTypeFromMimeType(mimeType),
		fileSize: prettyBytesFn()(bytes.length),
		bytes: bytes.length,
	};
	if (options.fileName) {
		data.fileName = options.fileName;
		const ext = path.extname(options.fileName).slice(1);
		if (ext) data.fileExtension = ext;
	}
	return data;
}

let storeCounter = 0;

/**
 * Stores bytes or a file through the real BinaryDataService (filesystem mode) outside any run.
 * @param {Buffer | Uint8Array | string} bufferOrPath a Buffer/Uint8Array, or a file path (string)
 * @param {BinaryOptions & { workflowId?: string, executionId?: string }} [options]
 * @returns {Promise<IBinaryData>} with `id`
 */
async function storeBinary(bufferOrPath, options = {}) {
	await initEngine();
	const isPath = typeof bufferOrPath === 'string';
	const fileName = options.fileName ?? (isPath ? path.basename(bufferOrPath) : undefined);
	const mimeType =
		options.mimeType ?? (fileName && require('mime-types').lookup(fileName)) ?? 'application/octet-stream';
	/** @type {IBinaryData} */
	const binaryData = { data: '', mimeType: mimeType || 'application/octet-stream' };
	binaryData.fileType = fileTypeFromMimeType(binaryData.mimeType);
	if (fileName) {
		binaryData.fileName = fileName;
		const ext = path.extname(fileName).slice(1);
		if (ext) binaryData.fileExtension = ext;
	}
	const location = {
		type: /** @type {const} */ ('execution'),
		workflowId: options.workflowId ?? 'harness-store',
		executionId: options.executionId ?? `stored-${process.pid}-${++storeCounter}`,
	};
	const body = isPath ? fs.createReadStream(bufferOrPath) : Buffer.from(bufferOrPath);
	return await getBinaryDataService().store(location, body, binaryData);
}

/**
 * Reads a binary back (stored with `id` or inline base64).
 * @param {IBinaryData} binaryData
 * @returns {Promise<Buffer>}
 */
async function readBinary(binaryData) {
	await initEngine();
	return await getBinaryDataService().getAsBuffer(binaryData);
}

/**
 * Turns a spec into a stored binary using the running node's helpers (called by the start node).
 * @param {import('n8n-workflow').IExecuteFunctions} ctx
 * @param {BinarySpec} spec
 * @returns {Promise<IBinaryData>}
 */
async function materialiseSpec(ctx, spec) {
	let binary;
	if (spec.kind === 'file') {
		const stream = fs.createReadStream(spec.filePath);
		binary = await ctx.helpers.prepareBinaryData(stream, spec.filePath, spec.mimeType);
	} else {
		binary = await ctx.helpers.prepareBinaryData(spec.buffer, spec.fileName, spec.mimeType);
	}
	if (spec.fileName) {
		binary.fileName = spec.fileName;
		const ext = path.extname(spec.fileName).slice(1);
		if (ext) binary.fileExtension = ext;
	}
	return binary;
}

module.exports = {
	binaryFromBuffer,
	binaryFromFile,
	inlineBinary,
	storeBinary,
	readBinary,
	isBinarySpec,
	materialiseSpec,
};
