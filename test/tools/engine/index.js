// @ts-check
'use strict';

/** The engine harness: see README.md in this folder for the API. */

const { initEngine, getBinaryDataService } = require('./engine');
const { runWorkflow } = require('./run');
const { runNode } = require('./run-node');
const { callListSearch, callLoadOptions } = require('./load-options');
const { testCredential } = require('./credential-tester');
const { createEngine } = require('./create-engine');
const { binaryFromBuffer, binaryFromFile, inlineBinary, storeBinary, readBinary } = require('./binary');
const { START_NODE_TYPE } = require('./start-node');
const { HarnessCredentialsHelper } = require('./credentials-helper');
const { clearDedupStore } = require('./dedup-store');
const { createPoller } = require('./poll');
const { toolVariant, toolTypeName, offered, AGENT_TYPE, AGENT_TYPE_NAME } = require('./ai-tool');

module.exports = {
	initEngine,
	getBinaryDataService,
	runWorkflow,
	runNode,
	callListSearch,
	callLoadOptions,
	testCredential,
	createEngine,
	binaryFromBuffer,
	binaryFromFile,
	inlineBinary,
	storeBinary,
	readBinary,
	START_NODE_TYPE,
	HarnessCredentialsHelper,
	clearDedupStore,
	createPoller,
	toolVariant,
	toolTypeName,
	offered,
	AGENT_TYPE,
	AGENT_TYPE_NAME,
};
