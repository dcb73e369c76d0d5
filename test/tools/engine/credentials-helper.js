// @ts-check
'use strict';

/**
 * The harness stand-in for n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts),
 * written from its documented behaviour: credentials live in memory instead of the database,
 * everything a node sees goes through the same steps as in n8n:
 * - getDecrypted: stored data -> defaults from the credential type's properties
 *   (NodeHelpers.getNodeParameters) -> expressions resolved with the real expression engine.
 * - authenticate: a function-type `authenticate` is called; a generic one has every key and value
 *   of headers/qs/body/auth resolved as an expression with `$credentials` and set on the request.
 * - preAuthentication: called when the credential type has an expirable hidden property that is
 *   empty or expired (or when testing), its result stored back and merged.
 */

const {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	UserError,
	UnexpectedError,
	isExpression,
} = require('n8n-workflow');

/**
 * @typedef {import('n8n-workflow').ICredentialType} ICredentialType
 * @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} CredentialData
 * @typedef {import('n8n-workflow').INodeCredentialsDetails} INodeCredentialsDetails
 * @typedef {{ id: string, name: string, type: string, data: CredentialData }} StoredCredential
 */

/** @type {import('n8n-workflow').INode} */
const mockNode = { id: 'mock', name: '', typeVersion: 1, type: 'mock', position: [0, 0], parameters: {} };

/** @type {import('n8n-workflow').INodeTypes} */
const mockNodeTypes = {
	getByName: () => /** @type {any} */ ({ description: { properties: [] } }),
	getByNameAndVersion: () => /** @type {any} */ ({ description: { properties: [] } }),
	getKnownTypes: () => ({}),
};

class HarnessCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param {{ credentialTypes: Record<string, ICredentialType>, credentials?: StoredCredential[] }} options
	 */
	constructor({ credentialTypes, credentials = [] }) {
		super();
		/** @type {Record<string, ICredentialType>} */
		this.credentialTypes = {};
		for (const [key, type] of Object.entries(credentialTypes)) {
			this.credentialTypes[key] = type;
			this.credentialTypes[type.name] = type;
		}
		/** @type {Map<string, StoredCredential>} */
		this.store = new Map();
		for (const c of credentials) this.store.set(c.id, { ...c, data: { ...c.data } });
		/** Every authenticate() call, for tests that want to see it happened: { type, url }. */
		/** @type {Array<{ type: string, url: string | undefined }>} */
		this.authenticateCalls = [];
	}

	/**
	 * @param {string} typeName
	 * @returns {ICredentialType}
	 */
	getType(typeName) {
		const type = this.credentialTypes[typeName];
		if (!type) {
			throw new UnexpectedError('Unknown credential type', { tags: { credentialType: typeName } });
		}
		return type;
	}

	/** @param {string} typeName @returns {string[]} all ancestors via `extends` */
	getParentTypes(typeName) {
		const type = this.credentialTypes[typeName];
		if (!type?.extends) return [];
		/** @type {string[]} */
		const parents = [];
		for (const parent of type.extends) {
			parents.push(parent, ...this.getParentTypes(parent));
		}
		return parents;
	}

	/** @param {string} credentialType @param {string} _nodeType */
	isCredentialUsableByNode(credentialType, _nodeType) {
		const type = this.credentialTypes[credentialType];
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some((n) => _nodeType === n || _nodeType.endsWith(`.${n}`));
	}

	/**
	 * @param {CredentialData} credentials
	 * @param {string} typeName
	 * @param {import('n8n-workflow').IHttpRequestOptions | import('n8n-workflow').IRequestOptionsSimplified} requestOptions
	 * @param {Workflow} [workflow]
	 * @param {import('n8n-workflow').INode} [node]
	 * @returns {Promise<import('n8n-workflow').IHttpRequestOptions>}
	 */
	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		const type = this.getType(typeName);
		this.authenticateCalls.push({
			type: typeName,
			url: /** @type {any} */ (requestOptions).url ?? /** @type {any} */ (requestOptions).uri,
		});
		const { authenticate } = type;
		if (!authenticate) return /** @type {any} */ (requestOptions);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, /** @type {any} */ (requestOptions));
		}
		if (typeof authenticate === 'object') {
			if (!workflow || !node) {
				throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
			}
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			if (authenticate.type === 'generic') {
				const target = /** @type {Record<string, Record<string, unknown>>} */ (/** @type {unknown} */ (requestOptions));
				for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
					for (const [key, value] of Object.entries(outerValue ?? {})) {
						const keyResolved = this.resolveValue(key, credentials, workflow, node);
						const valueResolved = this.resolveValue(/** @type {string} */ (value), credentials, workflow, node);
						if (!target[outerKey]) target[outerKey] = {};
						target[outerKey][keyResolved] = valueResolved;
					}
				}
			}
		}
		return /** @type {any} */ (requestOptions);
	}

	/**
	 * @param {string} value
	 * @param {CredentialData} credentials
	 * @param {Workflow} workflow
	 * @param {import('n8n-workflow').INode} node
	 * @returns {string}
	 */
	resolveValue(value, credentials, workflow, node) {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		if (!resolved) return '';
		return resolved.toString();
	}

	/**
	 * @param {import('n8n-workflow').IHttpRequestHelper} helpers
	 * @param {CredentialData} credentials
	 * @param {string} typeName
	 * @param {import('n8n-workflow').INode} node
	 * @param {boolean} credentialsExpired
	 * @returns {Promise<CredentialData | undefined>}
	 */
	async preAuthentication(helpers, credentials, typeName, node, credentialsExpired) {
		const type = this.getType(typeName);
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (expirable?.name === undefined) return undefined;
		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] === '' || credentialsExpired || isTestingCredentials) {
			const output = /** @type {CredentialData} */ (await type.preAuthentication.call(helpers, credentials));
			if (output[expirable.name] === undefined) return undefined;
			if (node.credentials) {
				const details = node.credentials[type.name];
				const stored = this.findStored(details, type.name);
				/** @type {CredentialData} */
				const toPersist = { ...stored.data };
				for (const [key, value] of Object.entries(output)) {
					if (key === expirable.name || !isExpression(stored.data[key])) toPersist[key] = value;
				}
				stored.data = toPersist;
				return Object.assign(credentials, output);
			}
		}
		return undefined;
	}

	/**
	 * @param {import('n8n-workflow').IHttpRequestHelper} helpers
	 * @param {CredentialData} credentials
	 * @param {string} typeName
	 * @returns {Promise<CredentialData | undefined>}
	 */
	async runPreAuthentication(helpers, credentials, typeName) {
		const type = this.getType(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		return /** @type {CredentialData | undefined} */ (output ?? undefined);
	}

	/**
	 * @param {INodeCredentialsDetails} details
	 * @param {string} type
	 * @returns {StoredCredential}
	 */
	findStored(details, type) {
		if (!details?.id) {
			throw new UserError(`Credential "${details?.name}" of type "${type}" has no ID.`);
		}
		const stored = this.store.get(details.id);
		if (!stored || stored.type !== type) {
			throw new UserError(`Credential with ID "${details.id}" does not exist for type "${type}".`);
		}
		return stored;
	}

	/**
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 */
	async getCredentials(nodeCredentials, type) {
		const { Credentials } = require('n8n-core');
		const stored = this.findStored(nodeCredentials, type);
		const credentials = new Credentials({ id: stored.id, name: stored.name }, type);
		await credentials.setData({ ...stored.data });
		return credentials;
	}

	/**
	 * @param {import('n8n-workflow').IWorkflowExecuteAdditionalData} additionalData
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {import('n8n-workflow').WorkflowExecuteMode} mode
	 * @param {import('n8n-workflow').IExecuteData} [executeData]
	 * @param {boolean} [raw]
	 * @param {import('n8n-workflow').ICredentialsExpressionResolveValues} [expressionResolveValues]
	 * @returns {Promise<CredentialData>}
	 */
	async getDecrypted(additionalData, nodeCredentials, type, mode, executeData, raw, expressionResolveValues) {
		const stored = this.findStored(nodeCredentials, type);
		const original = structuredClone(stored.data);
		if (raw === true) return original;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			original,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/**
	 * Defaults from the credential type's properties, then expressions resolved (n8n's order).
	 * @param {import('n8n-workflow').IWorkflowExecuteAdditionalData} additionalData
	 * @param {CredentialData} original
	 * @param {string} type
	 * @param {import('n8n-workflow').WorkflowExecuteMode} mode
	 * @param {import('n8n-workflow').IExecuteData} [executeData]
	 * @param {import('n8n-workflow').ICredentialsExpressionResolveValues} [resolveValues]
	 * @returns {Promise<CredentialData>}
	 */
	async applyDefaultsAndOverwrites(additionalData, original, type, mode, executeData, resolveValues) {
		const { getAdditionalKeys } = require('n8n-core');
		const properties = this.getCredentialsProperties(type);
		let data = /** @type {CredentialData} */ (
			NodeHelpers.getNodeParameters(properties, /** @type {any} */ ({ ...original }), true, false, null, null)
		);
		if (original.oauthTokenData !== undefined) data.oauthTokenData = original.oauthTokenData;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (resolveValues) {
			try {
				data = /** @type {CredentialData} */ (
					resolveValues.workflow.expression.getParameterValue(
						/** @type {any} */ (data),
						resolveValues.runExecutionData,
						resolveValues.runIndex,
						resolveValues.itemIndex,
						resolveValues.node.name,
						resolveValues.connectionInputData,
						mode,
						additionalKeys,
						executeData,
						false,
						data,
					)
				);
			} catch (e) {
				e.message += ' [Error resolving credentials]';
				throw e;
			}
		} else {
			const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: mockNodeTypes });
			data = /** @type {CredentialData} */ (
				workflow.expression.getComplexParameterValue(
					mockNode,
					/** @type {any} */ (data),
					mode,
					additionalKeys,
					undefined,
					undefined,
					data,
				)
			);
		}
		return data;
	}

	/**
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {CredentialData} data
	 */
	async updateCredentials(nodeCredentials, type, data) {
		this.findStored(nodeCredentials, type).data = { ...data };
	}

	/**
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {CredentialData} data
	 */
	async updateCredentialsOauthTokenData(nodeCredentials, type, data) {
		const stored = this.findStored(nodeCredentials, type);
		stored.data = { ...stored.data, oauthTokenData: data.oauthTokenData };
	}

	/**
	 * @param {string} typeName
	 * @returns {import('n8n-workflow').INodeProperties[]}
	 */
	getCredentialsProperties(typeName) {
		const type = this.getType(typeName);
		if (type.extends === undefined) return type.properties;
		/** @type {import('n8n-workflow').INodeProperties[]} */
		const combined = [];
		for (const parent of type.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, type.properties);
		return combined;
	}
}

module.exports = { HarnessCredentialsHelper };
