// Helpers for the emulator's own tests (not a test file itself).
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import { request } from 'undici';

export type Emu = Awaited<ReturnType<typeof import('./index').startEmulator>>;

export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
}

/** An undici request whose body is read as text. */
export async function call(
	url: string,
	options: Parameters<typeof request>[1] = {},
): Promise<Answer> {
	const res = await request(url, options);
	const text = await res.body.text();
	return { status: res.statusCode, headers: res.headers, text };
}

/** POST /getuploadurl with a JSON body. */
export function askUploadUrl(
	emu: Emu,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<Answer> {
	return call(`${emu.baseUrl}/getuploadurl`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
}

/** Ask an address for the demo wedding event and return it. */
export async function uploadUrlFor(
	emu: Emu,
	fields: Record<string, unknown> = {},
): Promise<string> {
	const res = await askUploadUrl(emu, {
		apiKey: emu.apiKey,
		linkId: 'wedding-anna-ben',
		fileName: 'photo.jpg',
		...fields,
	});
	if (res.status !== 200) throw new Error(`getuploadurl answered ${res.status}: ${res.text}`);
	return JSON.parse(res.text).uploadUrl;
}

/** PUT a buffer with the given headers. */
export function put(
	url: string,
	body: Buffer | string,
	headers: Record<string, string> = { 'content-type': 'image/jpeg' },
) {
	return call(url, { method: 'PUT', headers, body });
}

/** The S3 error code of an XML error body. */
export function s3Code(text: string): string | undefined {
	return /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
}

/**
 * Send raw bytes to host:port and collect everything until the server closes (or `waitMs` passes).
 * For requests undici refuses to send (wrong Content-Length, no length).
 */
export function raw(
	url: string,
	parts: (string | Buffer)[],
	o: { endInput?: boolean; waitMs?: number } = {},
): Promise<string> {
	const u = new URL(url);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = net.connect(Number(u.port), u.hostname, () => {
			socket.write(
				Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p))),
			);
			if (o.endInput) socket.end();
		});
		const timer = setTimeout(() => {
			socket.destroy();
			resolve(Buffer.concat(chunks).toString('latin1'));
		}, o.waitMs ?? 3000);
		socket.on('data', (c) => chunks.push(c));
		socket.on('close', () => {
			clearTimeout(timer);
			resolve(Buffer.concat(chunks).toString('latin1'));
		});
		socket.on('error', (e) => {
			clearTimeout(timer);
			if (chunks.length > 0) resolve(Buffer.concat(chunks).toString('latin1'));
			else reject(e);
		});
	});
}

/** The request line + headers of a raw PUT to an upload address. */
export function rawPutHead(uploadUrl: string, headers: Record<string, string>): string {
	const u = new URL(uploadUrl);
	const lines = [`PUT ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`];
	for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
	return lines.join('\r\n') + '\r\n\r\n';
}

let crcTable: number[] | undefined;
function crc32(buf: Buffer): number {
	if (!crcTable) {
		crcTable = [];
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
			crcTable.push(c >>> 0);
		}
	}
	let c = 0xffffffff;
	for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length);
	const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(td));
	return Buffer.concat([len, td, crc]);
}

/** A real, colourful PNG image (a gradient), made in memory. */
export function makePng(width = 96, height = 64): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // RGB
	const rows: Buffer[] = [];
	for (let y = 0; y < height; y++) {
		const row = Buffer.alloc(1 + width * 3);
		for (let x = 0; x < width; x++) {
			row[1 + x * 3] = Math.round((255 * x) / width);
			row[2 + x * 3] = Math.round((255 * y) / height);
			row[3 + x * 3] = 160;
		}
		rows.push(row);
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', ihdr),
		chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
		chunk('IEND', Buffer.alloc(0)),
	]);
}
