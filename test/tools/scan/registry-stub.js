// @ts-check
'use strict';

/**
 * A stand-in, on 127.0.0.1, for everything @n8n/scan-community-package downloads, so its own CLI
 * can scan a package that was never published:
 *
 *   https://registry.npmjs.org/<name>                        package document (packument), with the
 *                                                            provenance attestation the scanner demands
 *   https://registry.npmjs.org/-/npm/v1/attestations/<n>@<v> the attestation bundle; its statement
 *                                                            names the source repository and commit
 *   https://codeload.github.com/<owner>/<repo>/tar.gz/<sha> the source tarball of that commit
 *   http://127.0.0.1:<port>/<name>                           the same packument for `npm pack`, whose
 *   http://127.0.0.1:<port>/<name>/-/<name>-<v>.tgz          registry is pointed here, and the tarball
 *
 * The scanner asks the two https hosts through axios, which honours HTTPS_PROXY by opening a CONNECT
 * tunnel; this server is that proxy: it accepts CONNECT only to those two hosts and ends the TLS
 * itself with a certificate from a throwaway CA (openssl, written to workDir) that the scanner's
 * process trusts through NODE_EXTRA_CA_CERTS. Every request, and every refused tunnel, is logged.
 *
 * The attestation is shaped like npm's but not signed: the scanner does not verify signatures (it
 * trusts the registry), so this checks the scanner's logic, not npm's signing.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const REGISTRY_HOST = 'registry.npmjs.org';
const CODELOAD_HOST = 'codeload.github.com';
const PROVENANCE_PREDICATE_TYPE = 'https://slsa.dev/provenance/v1';

/**
 * @typedef {object} StubRequest
 * @property {'http' | 'proxy' | 'tunnel'} via  direct to the stub, absolute-URL proxy request, or inside a CONNECT tunnel
 * @property {string} host
 * @property {string} method
 * @property {string} path
 * @property {number} status
 * @property {string} served  what was answered: packument, attestations, package-tarball, source-tarball, refused, not-found
 */

/**
 * @typedef {object} RegistryStubOptions
 * @property {Record<string, unknown>} packageJson  the package.json inside the tarball
 * @property {string} tarballPath     the `npm pack` tarball
 * @property {string} sourceTarballPath  a .tar.gz with one top directory holding the source tree
 * @property {string} owner           GitHub owner named in the provenance statement
 * @property {string} repo            GitHub repository named in the provenance statement
 * @property {string} gitCommit       40 hex digits
 * @property {string} workDir         where the CA and certificate are written
 */

/**
 * @typedef {object} RegistryStub
 * @property {string} origin        http://127.0.0.1:<port>
 * @property {string} registryUrl   http://127.0.0.1:<port>/ (for npm_config_registry)
 * @property {string} proxyUrl      http://127.0.0.1:<port> (for HTTPS_PROXY)
 * @property {string} caFile        PEM of the throwaway CA (for NODE_EXTRA_CA_CERTS)
 * @property {StubRequest[]} requests
 * @property {() => Promise<void>} close
 */

/**
 * Make a throwaway CA and a server certificate for the two hosts.
 * @param {string} dir
 * @returns {{ caFile: string, key: Buffer, cert: Buffer }}
 */
function makeCertificates(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const file = (/** @type {string} */ name) => path.join(dir, name);
	/** @param {string[]} args */
	const openssl = (args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
	const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl([
		'req',
		'-x509',
		...ecKey,
		'-keyout',
		file('ca.key'),
		'-out',
		file('ca.pem'),
		'-days',
		'2',
		'-subj',
		'/CN=n8n-nodes-eventpics scan stub CA',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
	]);
	openssl([
		'req',
		'-new',
		...ecKey,
		'-keyout',
		file('server.key'),
		'-out',
		file('server.csr'),
		'-subj',
		`/CN=${REGISTRY_HOST}`,
	]);
	fs.writeFileSync(
		file('server.ext'),
		[
			`subjectAltName=DNS:${REGISTRY_HOST},DNS:${CODELOAD_HOST}`,
			'basicConstraints=critical,CA:FALSE',
			'keyUsage=critical,digitalSignature',
			'extendedKeyUsage=serverAuth',
			'',
		].join('\n'),
	);
	openssl([
		'x509',
		'-req',
		'-in',
		file('server.csr'),
		'-CA',
		file('ca.pem'),
		'-CAkey',
		file('ca.key'),
		'-CAcreateserial',
		'-out',
		file('server.pem'),
		'-days',
		'2',
		'-extfile',
		file('server.ext'),
	]);
	return {
		caFile: file('ca.pem'),
		key: fs.readFileSync(file('server.key')),
		cert: fs.readFileSync(file('server.pem')),
	};
}

/**
 * @param {RegistryStubOptions} options
 * @returns {Promise<RegistryStub>}
 */
async function startRegistryStub(options) {
	const { packageJson, owner, repo, gitCommit } = options;
	const name = String(packageJson.name);
	const version = String(packageJson.version);
	const tarball = fs.readFileSync(options.tarballPath);
	const sourceTarball = fs.readFileSync(options.sourceTarballPath);
	const { caFile, key, cert } = makeCertificates(options.workDir);

	/** @type {StubRequest[]} */
	const requests = [];
	const tarballFile = `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
	const tarballPath = `/${name}/-/${tarballFile}`;
	const attestationsPath = `/-/npm/v1/attestations/${name}@${version}`;
	const sourcePath = `/${owner}/${repo}/tar.gz/${gitCommit}`;

	const statement = {
		_type: 'https://in-toto.io/Statement/v1',
		subject: [
			{
				name: `pkg:npm/${name}@${version}`,
				digest: { sha512: crypto.createHash('sha512').update(tarball).digest('hex') },
			},
		],
		predicateType: PROVENANCE_PREDICATE_TYPE,
		predicate: {
			buildDefinition: {
				buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
				externalParameters: {
					workflow: {
						ref: 'refs/heads/main',
						repository: `https://github.com/${owner}/${repo}`,
						path: '.github/workflows/publish.yml',
					},
				},
				resolvedDependencies: [
					{ uri: `git+https://github.com/${owner}/${repo}@refs/heads/main`, digest: { gitCommit } },
				],
			},
			runDetails: { builder: { id: 'https://github.com/actions/runner/github-hosted' } },
		},
	};
	const attestations = {
		attestations: [
			{
				predicateType: PROVENANCE_PREDICATE_TYPE,
				bundle: {
					mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
					dsseEnvelope: {
						payload: Buffer.from(JSON.stringify(statement)).toString('base64'),
						payloadType: 'application/vnd.in-toto+json',
						signatures: [],
					},
				},
			},
		],
	};

	/** @param {string} origin */
	const packument = (origin) => ({
		_id: name,
		name,
		'dist-tags': { latest: version },
		versions: {
			[version]: {
				...packageJson,
				_id: `${name}@${version}`,
				dist: {
					tarball: `${origin}${tarballPath}`,
					shasum: crypto.createHash('sha1').update(tarball).digest('hex'),
					integrity: `sha512-${crypto.createHash('sha512').update(tarball).digest('base64')}`,
					attestations: {
						url: `https://${REGISTRY_HOST}${attestationsPath}`,
						provenance: { predicateType: PROVENANCE_PREDICATE_TYPE },
					},
				},
			},
		},
		time: { [version]: new Date().toISOString() },
	});

	let origin = '';

	/**
	 * @param {'http' | 'proxy' | 'tunnel'} via
	 * @returns {http.RequestListener}
	 */
	const handler = (via) => (req, res) => {
		// an absolute URL when asked as a proxy; otherwise a path (which may start with '//': axios
		// joins 'https://registry.npmjs.org/' + '/' + name), so no URL parsing of it as a reference
		const raw = req.url ?? '/';
		const absolute = /^https?:\/\//i.test(raw) ? new URL(raw) : null;
		const host = absolute
			? absolute.hostname
			: String(req.headers.host ?? '127.0.0.1').replace(/:\d+$/, '');
		const rawPath = (absolute ? absolute.pathname : raw).split('?')[0];
		const pathname = decodeURIComponent(rawPath).replace(/^\/+/, '/');
		/** @type {{ status: number, served: string, type?: string, body?: Buffer | string }} */
		let answer = {
			status: 404,
			served: 'not-found',
			type: 'application/json',
			body: '{"error":"Not found"}',
		};
		const isRegistry = host === REGISTRY_HOST || host === '127.0.0.1' || host === 'localhost';
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			answer = { status: 405, served: 'refused', type: 'text/plain', body: 'method not allowed' };
		} else if (isRegistry && pathname === `/${name}`) {
			const base = host === REGISTRY_HOST ? `https://${REGISTRY_HOST}` : origin;
			answer = {
				status: 200,
				served: 'packument',
				type: 'application/json',
				body: JSON.stringify(packument(base)),
			};
		} else if (isRegistry && pathname === attestationsPath) {
			answer = {
				status: 200,
				served: 'attestations',
				type: 'application/json',
				body: JSON.stringify(attestations),
			};
		} else if (isRegistry && pathname === tarballPath) {
			answer = {
				status: 200,
				served: 'package-tarball',
				type: 'application/octet-stream',
				body: tarball,
			};
		} else if (host === CODELOAD_HOST && pathname === sourcePath) {
			answer = {
				status: 200,
				served: 'source-tarball',
				type: 'application/x-gzip',
				body: sourceTarball,
			};
		}
		requests.push({
			via,
			host,
			method: req.method ?? '',
			path: rawPath,
			status: answer.status,
			served: answer.served,
		});
		res.writeHead(answer.status, {
			'content-type': answer.type ?? 'text/plain',
			connection: 'close',
		});
		res.end(req.method === 'HEAD' ? undefined : answer.body);
	};

	const tlsServer = https.createServer({ key, cert }, handler('tunnel'));
	const server = http.createServer((req, res) => {
		const absolute = /^https?:\/\//i.test(req.url ?? '');
		handler(absolute ? 'proxy' : 'http')(req, res);
	});
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('connect', (req, socket, head) => {
		const [host, port] = String(req.url ?? '').split(':');
		if ((host === REGISTRY_HOST || host === CODELOAD_HOST) && (port ?? '443') === '443') {
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head && head.length) socket.unshift(head);
			tlsServer.emit('connection', socket);
		} else {
			requests.push({
				via: 'tunnel',
				host: host ?? '',
				method: 'CONNECT',
				path: String(req.url),
				status: 403,
				served: 'refused',
			});
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
		}
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('registry stub: no port');
	origin = `http://127.0.0.1:${address.port}`;

	return {
		origin,
		registryUrl: `${origin}/`,
		proxyUrl: origin,
		caFile,
		requests,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(() => resolve(undefined)));
			tlsServer.close();
		},
	};
}

module.exports = { startRegistryStub, REGISTRY_HOST, CODELOAD_HOST };
