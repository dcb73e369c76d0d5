// @ts-check
'use strict';

/**
 * Starts the parts of n8n the harness needs, once per process: environment for the config
 * classes, the recording logger, and the real BinaryDataService in filesystem mode.
 *
 * The environment must be set before the first DI container lookup of n8n's config classes
 * (they read process.env when constructed). If something else already created them with other
 * values, `initEngine` throws instead of silently running in another binary mode.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { installLogger } = require('./logs');

/** @typedef {{ userFolder: string, binaryStoragePath: string }} EngineInfo */

const TEMP_PREFIX = 'n8n-harness-';
const OWNER_FILE = '.owner-pid';

/** Removes harness temp folders whose owning process is gone. */
function sweepStaleFolders() {
	if (process.env.N8N_HARNESS_KEEP) return;
	const tmp = os.tmpdir();
	for (const name of fs.readdirSync(tmp)) {
		if (!name.startsWith(TEMP_PREFIX)) continue;
		const folder = path.join(tmp, name);
		let pid;
		try {
			pid = Number(fs.readFileSync(path.join(folder, OWNER_FILE), 'utf8'));
		} catch {
			continue; // not ours, or being created right now
		}
		if (!pid || pid === process.pid || isAlive(pid)) continue;
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/** @param {number} pid */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** @type {Promise<EngineInfo> | undefined} */
let started;

/**
 * Sets the environment n8n reads for its user folder and binary data store.
 * Values already present in the environment are kept.
 * @returns {EngineInfo}
 */
function prepareEnvironment() {
	if (!process.env.N8N_USER_FOLDER) {
		sweepStaleFolders();
		const folder = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
		fs.writeFileSync(path.join(folder, OWNER_FILE), String(process.pid));
		process.env.N8N_USER_FOLDER = folder;
		// A folder the harness made is removed when the process ends (N8N_HARNESS_KEEP=1 keeps it);
		// jest workers may end without 'exit', so later starts also sweep folders of dead processes.
		process.once('exit', () => {
			if (!process.env.N8N_HARNESS_KEEP) fs.rmSync(folder, { recursive: true, force: true });
		});
	}
	const userFolder = process.env.N8N_USER_FOLDER;
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	if (!process.env.N8N_BINARY_DATA_STORAGE_PATH) {
		process.env.N8N_BINARY_DATA_STORAGE_PATH = path.join(userFolder, 'binaryData');
	}
	// The harness is a development tool: no diagnostics, no version checks, no telemetry.
	process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
	process.env.N8N_VERSION_NOTIFICATIONS_ENABLED ??= 'false';
	// Without this, InstanceSettings warns about the config file's permissions on every start.
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
	fs.mkdirSync(process.env.N8N_BINARY_DATA_STORAGE_PATH, { recursive: true });
	return { userFolder, binaryStoragePath: process.env.N8N_BINARY_DATA_STORAGE_PATH };
}

/**
 * Initialises the engine once; later calls return the same promise.
 * @returns {Promise<EngineInfo>}
 */
function initEngine() {
	started ??= (async () => {
		const info = prepareEnvironment();
		installLogger();
		const { Container } = require('@n8n/di');
		const { BinaryDataService, BinaryDataConfig } = require('n8n-core');
		const config = Container.get(BinaryDataConfig);
		if (config.mode !== 'filesystem') {
			throw new Error(
				`n8n's BinaryDataConfig was created before the harness set N8N_DEFAULT_BINARY_DATA_MODE (mode is "${config.mode}"). ` +
					'Require test/tools/engine before anything that touches the n8n DI container.',
			);
		}
		info.binaryStoragePath = config.localStoragePath;
		await Container.get(BinaryDataService).init();
		const { DataDeduplicationService } = require('n8n-core');
		await DataDeduplicationService.init(require('./dedup-store').inMemoryDeduplicator);
		return info;
	})();
	return started;
}

/**
 * The real BinaryDataService (after `initEngine`).
 * @returns {import('n8n-core').BinaryDataService}
 */
function getBinaryDataService() {
	const { Container } = require('@n8n/di');
	const { BinaryDataService } = require('n8n-core');
	return Container.get(BinaryDataService);
}

module.exports = { initEngine, getBinaryDataService, prepareEnvironment };
