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

/** @type {Promise<EngineInfo> | undefined} */
let started;

/**
 * Sets the environment n8n reads for its user folder and binary data store.
 * Values already present in the environment are kept.
 * @returns {EngineInfo}
 */
function prepareEnvironment() {
	if (!process.env.N8N_USER_FOLDER) {
		process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
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
					'Require test/engine before anything that touches the n8n DI container.',
			);
		}
		info.binaryStoragePath = config.localStoragePath;
		await Container.get(BinaryDataService).init();
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
