// @ts-check
'use strict';

/**
 * Log capture for the engine harness.
 *
 * n8n logs through two channels: `LoggerProxy` (n8n-workflow; WorkflowExecute, expression engine,
 * request helpers) and the `Logger` service from `@n8n/backend-common` that the DI container hands
 * to node contexts (`this.logger` inside a node) and to services such as BinaryDataService.
 * One recording logger is installed on both; every line goes to each capture that is open.
 */

const { LoggerProxy } = require('n8n-workflow');

/**
 * @typedef {'error'|'warn'|'info'|'debug'} LogLevel
 * @typedef {{ level: LogLevel, message: string, metadata?: unknown, time: number }} LogLine
 */

/** @type {Set<LogLine[]>} */
const openCaptures = new Set();

/** Lines logged while no capture was open (engine start-up); kept for diagnosis. */
/** @type {LogLine[]} */
const orphanLines = [];

/**
 * Turns anything a logger may receive into plain JSON-able data, keeping every own property of
 * errors (message, description, stack, cause, context...). What it shows only in brief (sockets,
 * streams and requests, buffers, maps and sets, symbol-keyed properties, anything deeper than 8
 * levels) goes into `unshown`, for `unshownText` to search whole: a key-leak search sees all of it.
 * @param {unknown} value
 * @param {WeakSet<object>} [seen]
 * @param {number} [depth]
 * @param {unknown[]} [unshown]
 * @returns {unknown}
 */
function toPlain(value, seen = new WeakSet(), depth = 0, unshown = []) {
	if (value === null || value === undefined) return value;
	if (typeof value === 'bigint') return value.toString();
	if (typeof value === 'function') return `[function ${value.name}]`;
	if (typeof value !== 'object') return value;
	if (depth > 8) {
		unshown.push(value);
		return '[too deep]';
	}
	if (seen.has(value)) return '[circular]';
	seen.add(value);
	if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
		unshown.push(value);
		return `[${value.constructor?.name ?? 'Buffer'} ${value.byteLength} bytes]`;
	}
	if (value instanceof Date) return value.toISOString();
	if (value instanceof Map || value instanceof Set) unshown.push(value);
	for (const symbol of Object.getOwnPropertySymbols(value)) {
		try {
			unshown.push(/** @type {any} */ (value)[symbol]);
		} catch {
			// an accessor that throws: nothing to search
		}
	}
	if (Array.isArray(value)) return value.map((v) => toPlain(v, seen, depth + 1, unshown));
	/** @type {Record<string, unknown>} */
	const out = {};
	if (value instanceof Error) {
		out.name = value.name;
		out.message = value.message;
		out.stack = value.stack;
	}
	for (const key of Object.getOwnPropertyNames(value)) {
		if (key in out) continue;
		let v;
		try {
			v = /** @type {Record<string, unknown>} */ (value)[key];
		} catch {
			v = '[unreadable]';
		}
		// Sockets, agents, requests and streams hold huge graphs: shown by name, searched whole.
		if (v && typeof v === 'object' && ('_events' in v || 'readableState' in v)) {
			unshown.push(v);
			out[key] = `[${v.constructor?.name ?? 'object'}]`;
			continue;
		}
		out[key] = toPlain(v, seen, depth + 1, unshown);
	}
	return out;
}

/**
 * Every text reachable from `roots`, one piece a line: string values and property names (symbol
 * keys included, own accessors read), the contents of buffers and typed arrays as UTF-8, the entries
 * of maps and sets, at any depth; each object once (cycles end there). Functions are not entered
 * (their own properties are code, not data). Iterative, so a long chain (a socket's timer list)
 * cannot overflow the stack.
 * @param {unknown[]} roots
 * @returns {string}
 */
function unshownText(roots) {
	/** @type {string[]} */
	const parts = [];
	const seen = new Set();
	const stack = [...roots];
	while (stack.length > 0) {
		const value = stack.pop();
		if (typeof value === 'string') parts.push(value);
		if (value === null || typeof value !== 'object' || seen.has(value)) continue;
		seen.add(value);
		if (ArrayBuffer.isView(value)) {
			parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8'));
			continue;
		}
		if (value instanceof ArrayBuffer) {
			parts.push(Buffer.from(value).toString('utf8'));
			continue;
		}
		if (value instanceof Map) for (const [key, entry] of value) stack.push(key, entry);
		if (value instanceof Set) for (const entry of value) stack.push(entry);
		for (const key of Reflect.ownKeys(value)) {
			if (typeof key === 'string') parts.push(key);
			const property = Object.getOwnPropertyDescriptor(value, key);
			if (property && 'value' in property) stack.push(property.value);
			else if (property?.get) {
				try {
					stack.push(property.get.call(value));
				} catch {
					// an accessor that throws: nothing to search
				}
			}
		}
	}
	return parts.join('\n');
}

/**
 * @param {LogLevel} level
 * @param {unknown} message
 * @param {unknown} [metadata]
 */
function record(level, message, metadata) {
	/** @type {unknown[]} */
	const unshown = [];
	/** @type {LogLine} */
	const line = {
		level,
		message:
			typeof message === 'string'
				? message
				: JSON.stringify(toPlain(message, undefined, undefined, unshown)),
		time: Date.now(),
	};
	if (metadata !== undefined) line.metadata = toPlain(metadata, undefined, undefined, unshown);
	// what the line shows only in brief, kept (not enumerable) for result.text()'s full search
	if (unshown.length > 0) Object.defineProperty(line, 'unshown', { value: unshown });
	if (openCaptures.size === 0) {
		orphanLines.push(line);
		if (orphanLines.length > 1000) orphanLines.shift();
	}
	for (const sink of openCaptures) sink.push(line);
	if (process.env.N8N_HARNESS_PRINT_LOGS) {
		console.error(`[n8n ${level}] ${line.message}`, metadata === undefined ? '' : metadata);
	}
}

/**
 * A logger with the shape of `@n8n/backend-common`'s Logger and n8n-workflow's `Logger` type.
 * `scoped()` returns itself, so scoped loggers also land in the captures.
 */
const recordingLogger = {
	/** @param {string} message @param {unknown} [metadata] */
	error: (message, metadata) => record('error', message, metadata),
	/** @param {string} message @param {unknown} [metadata] */
	warn: (message, metadata) => record('warn', message, metadata),
	/** @param {string} message @param {unknown} [metadata] */
	info: (message, metadata) => record('info', message, metadata),
	/** @param {string} message @param {unknown} [metadata] */
	debug: (message, metadata) => record('debug', message, metadata),
	/** @returns {typeof recordingLogger} */
	scoped() {
		return recordingLogger;
	},
};

/**
 * (Re)installs the recording logger on LoggerProxy and in the DI container.
 * Called by the engine on start and before every run, in case other code replaced it.
 */
function installLogger() {
	LoggerProxy.init(/** @type {any} */ (recordingLogger));
	const { Container } = require('@n8n/di');
	const { Logger } = require('@n8n/backend-common');
	Container.set(Logger, /** @type {any} */ (recordingLogger));
}

/**
 * Opens a capture: every log line from now until `stop()` is appended to `lines`.
 * Captures that overlap in time (concurrent runs) each receive all lines of that time.
 * @returns {{ lines: LogLine[], stop: () => LogLine[] }}
 */
function startCapture() {
	/** @type {LogLine[]} */
	const lines = [];
	openCaptures.add(lines);
	return {
		lines,
		stop() {
			openCaptures.delete(lines);
			return lines;
		},
	};
}

module.exports = { installLogger, startCapture, recordingLogger, orphanLines, toPlain, unshownText };
