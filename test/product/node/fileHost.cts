import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { late } from './fixture.cts';

/**
 * A file host on 127.0.0.1 for the URL source: serves files with or without Content-Length,
 * redirects, endless bodies, HTML pages and broken downloads, and logs every request so that tests
 * can count the GETs. It also answers as an HTTP proxy (absolute request URLs), so that a test can
 * send a public-looking address such as http://files.example.com/ through HTTP_PROXY without any
 * traffic leaving this machine.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HostRequest {
	method: string;
	/** The path (and query) asked for. */
	path: string;
	/** The host the client asked for: its Host header (the name, also when the address is pinned). */
	host: string;
	/** The host of the address the request went to: in the proxy case, that of the absolute URL (a pinned IP). */
	addressed: string;
}

export interface FileHost {
	/** http://127.0.0.1:<port> */
	url: string;
	requests: HostRequest[];
	/** Bytes written by the endless handler so far. */
	endlessBytesSent: () => number;
	route: (path: string, handler: Handler) => void;
	/** GET requests for a path (any host). */
	gets: (path: string) => number;
	reset: () => void;
	close: () => Promise<void>;
}

let endlessSent = 0;

export const serve = {
	/** A file with Content-Length (or chunked with `{ length: false }`). */
	file:
		(
			bytes: Buffer,
			type = 'application/octet-stream',
			extra: { length?: boolean; headers?: Record<string, string> } = {},
		): Handler =>
		(_req, res) => {
			const headers: Record<string, string | number> = { 'Content-Type': type, ...extra.headers };
			if (extra.length !== false) headers['Content-Length'] = bytes.length;
			res.writeHead(200, headers);
			if (extra.length === false) res.write(bytes.subarray(0, 1));
			res.end(extra.length === false ? bytes.subarray(1) : bytes);
		},
	/** A file served once; later GETs get 404 (a one-time link). */
	once: (bytes: Buffer, type: string): Handler => {
		let served = false;
		return (req, res) => {
			if (served) return void res.writeHead(404).end('link used');
			served = true;
			serve.file(bytes, type)(req, res);
		};
	},
	redirect:
		(location: string, status = 302): Handler =>
		(_req, res) =>
			void res.writeHead(status, { Location: location }).end(),
	/** Sends data without Content-Length until the client goes away. */
	endless:
		(type = 'image/jpeg'): Handler =>
		(_req, res) => {
			res.writeHead(200, { 'Content-Type': type });
			const chunk = Buffer.alloc(64 * 1024, 0xab);
			chunk.set([0xff, 0xd8, 0xff, 0xe0]);
			const pump = () => {
				while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
				if (!res.destroyed) res.once('drain', pump);
			};
			res.on('close', () => res.removeAllListeners('drain'));
			pump();
		},
	/** Announces a Content-Length, then sends nothing more until the client goes away. */
	announces:
		(length: number, type = 'video/mp4'): Handler =>
		(_req, res) => {
			res.writeHead(200, { 'Content-Type': type, 'Content-Length': length });
			res.write(Buffer.alloc(1024, 1));
		},
	/** Announces `declared` bytes, sends `bytes`, then breaks the connection. */
	drop:
		(bytes: Buffer, declared: number, type = 'image/jpeg'): Handler =>
		(_req, res) => {
			res.writeHead(200, { 'Content-Type': type, 'Content-Length': declared });
			res.write(bytes, () => setTimeout(() => res.socket?.destroy(), 200));
		},
	/** Chunked (no Content-Length): sends `bytes`, then breaks the connection. */
	dropChunked:
		(bytes: Buffer, type = 'image/jpeg'): Handler =>
		(_req, res) => {
			res.writeHead(200, { 'Content-Type': type });
			res.write(bytes, () => setTimeout(() => res.socket?.destroy(), 200));
		},
	html:
		(text: string): Handler =>
		(_req, res) =>
			void res
				.writeHead(200, {
					'Content-Type': 'text/html; charset=utf-8',
					'Content-Length': Buffer.byteLength(text),
				})
				.end(text),
};

/**
 * Makes `host` the HTTP proxy of every request to a name other than 127.0.0.1 (the emulator is
 * reached directly), so an address that names another host reaches the file host and nothing
 * leaves this machine. The returned function puts both variables back as they were (unset stays
 * unset).
 */
export function proxyThrough(host: FileHost): () => void {
	const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
	process.env.HTTP_PROXY = host.url;
	process.env.NO_PROXY = '127.0.0.1';
	return () => {
		for (const [name, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
}

export async function startFileHost(): Promise<FileHost> {
	const routes = new Map<string, Handler>();
	const requests: HostRequest[] = [];
	const server: Server = createServer((req, res) => {
		const absolute = /^https?:\/\//i.test(req.url ?? '');
		const target = new URL(
			req.url ?? '/',
			absolute ? undefined : `http://${req.headers.host ?? '127.0.0.1'}`,
		);
		const path = `${target.pathname}${target.search}`;
		requests.push({
			method: req.method ?? '',
			path,
			host: req.headers.host ?? target.host,
			addressed: target.host,
		});
		const handler = routes.get(path) ?? routes.get(target.pathname);
		if (!handler) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
		handler(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		requests,
		endlessBytesSent: () => endlessSent,
		route: (path, handler) => void routes.set(path, handler),
		gets: (path) =>
			requests.filter(
				(r) => r.method === 'GET' && (r.path === path || r.path.split('?')[0] === path),
			).length,
		reset: () => {
			requests.length = 0;
			endlessSent = 0;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * A file host for the enclosing describe block (or file), as useEmulator: started before its first
 * test, reset before each, closed after the last; with `proxy`, also the HTTP proxy of every other
 * address meanwhile (proxyThrough).
 */
export function useFileHost(options: { proxy?: boolean } = {}): FileHost {
	let started: FileHost | undefined;
	let restore = () => {};
	beforeAll(async () => {
		started = await startFileHost();
		if (options.proxy) restore = proxyThrough(started);
	});
	afterAll(async () => {
		restore();
		await started?.close();
	});
	beforeEach(() => started!.reset());
	return late(() => started);
}
