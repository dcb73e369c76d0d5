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
 * errors (message, description, stack, cause, context...) so a key-leak search sees all of it.
 * @param {unknown} value
 * @param {WeakSet<object>} [seen]
 * @param {number} [depth]
 * @returns {unknown}
 */
function toPlain(value, seen = new WeakSet(), depth = 0) {
	if (value === null || value === undefined) return value;
	if (typeof value === 'bigint') return value.toString();
	if (typeof value === 'function') return `[function ${value.name}]`;
	if (typeof value !== 'object') return value;
	if (depth > 8) return '[too deep]';
	if (seen.has(value)) return '[circular]';
	seen.add(value);
	if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
	if (value instanceof Date) return value.toISOString();
	if (Array.isArray(value)) return value.map((v) => toPlain(v, seen, depth + 1));
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
		// Sockets, agents and streams hold huge graphs and nothing a test looks for.
		if (v && typeof v === 'object' && ('_events' in v || 'readableState' in v)) {
			out[key] = `[${v.constructor?.name ?? 'object'}]`;
			continue;
		}
		out[key] = toPlain(v, seen, depth + 1);
	}
	return out;
}

/**
 * @param {LogLevel} level
 * @param {unknown} message
 * @param {unknown} [metadata]
 */
function record(level, message, metadata) {
	/** @type {LogLine} */
	const line = {
		level,
		message: typeof message === 'string' ? message : JSON.stringify(toPlain(message)),
		time: Date.now(),
	};
	if (metadata !== undefined) line.metadata = toPlain(metadata);
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

module.exports = { installLogger, startCapture, recordingLogger, orphanLines, toPlain };
