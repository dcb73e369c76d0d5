import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

import type { Emulator } from './fixture.cts';

/**
 * The emulator behind https:// names, so that a test can give the node a Base URL that is public and
 * encrypted, as in production: https://api.eventpics.test and https://storage.eventpics.test reach
 * the emulator's two servers through a CONNECT proxy on 127.0.0.1 (HTTPS_PROXY) and TLS fronts
 * with a certificate of a throwaway CA (made with openssl, trusted by this process only while the
 * front runs). Nothing leaves this machine and no DNS is asked.
 *
 * The front rewrites the upload address getuploadurl answers to start with `uploadOrigin`
 * (https://storage.eventpics.test unless a test sets another), so a test decides where the node
 * is told to PUT.
 */
export interface TlsFront {
	baseUrl: string;
	/** Where upload addresses point (their path and query are the emulator's own). */
	uploadOrigin: string;
	/** The storage front on 127.0.0.1, for https://127.0.0.1:<port> upload addresses. */
	storagePort: number;
	/** Hosts (names or addresses) the proxy was asked to connect to. */
	tunnels: string[];
	/** Key and certificate (valid for 127.0.0.1 too), for another https server of a test. */
	serverOptions: { key: string; cert: string };
	close: () => Promise<void>;
}

export const API_HOST = 'api.eventpics.test';
export const STORAGE_HOST = 'storage.eventpics.test';
/** The public address the test world's DNS gives the storage (../node/names.cts): the node connects to it. */
export const STORAGE_ADDRESS = '93.184.215.14';

function certificates(dir: string): { ca: string; key: string; cert: string } {
	const openssl = (args: string[]) =>
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	openssl(
		['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem'].concat(
			['-days', '2', '-subj', '/CN=EventPics test CA'],
		),
	);
	openssl(
		['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'front.key', '-out', 'front.csr'].concat([
			'-subj',
			`/CN=${API_HOST}`,
		]),
	);
	writeFileSync(
		join(dir, 'san.ext'),
		`subjectAltName=DNS:${API_HOST},DNS:${STORAGE_HOST},IP:127.0.0.1,IP:127.0.0.2\n`,
	);
	openssl(
		['x509', '-req', '-in', 'front.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key'].concat([
			'-CAcreateserial',
			'-out',
			'front.pem',
			'-days',
			'2',
			'-extfile',
			'san.ext',
		]),
	);
	const read = (name: string) => readFileSync(join(dir, name), 'utf8');
	return { ca: read('ca.pem'), key: read('front.key'), cert: read('front.pem') };
}

/** Forwards a request to `target` (http://127.0.0.1:port); `rewrite` may change a JSON answer. */
function forward(target: string, rewrite?: (req: IncomingMessage, body: string) => string) {
	return (req: IncomingMessage, res: ServerResponse) => {
		const url = new URL(req.url ?? '/', target);
		const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
			if (!rewrite) {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				return void answer.pipe(res);
			}
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				const body = rewrite(req, Buffer.concat(chunks).toString('utf8'));
				const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
				res.writeHead(answer.statusCode ?? 502, headers).end(body);
			});
		});
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	};
}

const listen = async (server: Server) => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
};

export async function startTlsFront(emu: Emulator): Promise<TlsFront> {
	const dir = mkdtempSync(join(tmpdir(), 'eventpics-tls-'));
	const { ca, key, cert } = certificates(dir);
	const original = tls.createSecureContext;
	tls.createSecureContext = (options) => {
		const context = original(options);
		context.context.addCACert(ca);
		return context;
	};
	const front: TlsFront = {
		baseUrl: `https://${API_HOST}`,
		uploadOrigin: `https://${STORAGE_HOST}`,
		storagePort: 0,
		tunnels: [],
		serverOptions: { key, cert },
		close: async () => undefined,
	};
	const api = createHttpsServer(
		{ key, cert },
		forward(emu.baseUrl, (req, body) =>
			req.url === '/getuploadurl' ? body.split(emu.storageUrl).join(front.uploadOrigin) : body,
		),
	);
	const storage = createHttpsServer({ key, cert }, forward(emu.storageUrl));
	const ports: Record<string, number> = {
		[API_HOST]: await listen(api),
		[STORAGE_HOST]: await listen(storage),
	};
	front.storagePort = ports[STORAGE_HOST];
	const proxy = createHttpServer((_req, res) => void res.writeHead(405).end());
	// tunnels are not connections the server closes: they are ended here on close
	const open = new Set<Socket>();
	proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
		open.add(client);
		client.on('close', () => open.delete(client));
		const host = (req.url ?? '').split(':')[0];
		front.tunnels.push(host);
		const port = ports[host] ?? (host === STORAGE_ADDRESS ? ports[STORAGE_HOST] : undefined);
		if (!port) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
		const server = connect(port, '127.0.0.1', () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			server.write(head);
			server.pipe(client).pipe(server);
		});
		server.on('error', () => client.destroy());
		client.on('error', () => server.destroy());
	});
	const proxyPort = await listen(proxy);
	const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
	process.env.HTTPS_PROXY = `http://127.0.0.1:${proxyPort}`;
	process.env.NO_PROXY = '127.0.0.1,127.0.0.2';
	front.close = async () => {
		tls.createSecureContext = original;
		process.env.HTTPS_PROXY = saved.HTTPS_PROXY;
		process.env.NO_PROXY = saved.NO_PROXY;
		if (saved.HTTPS_PROXY === undefined) delete process.env.HTTPS_PROXY;
		if (saved.NO_PROXY === undefined) delete process.env.NO_PROXY;
		for (const socket of open) socket.destroy();
		for (const server of [api, storage, proxy]) {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
		rmSync(dir, { recursive: true, force: true });
	};
	return front;
}
