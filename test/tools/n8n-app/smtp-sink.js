// @ts-check
'use strict';

/**
 * A minimal SMTP server on 127.0.0.1 that accepts every message and keeps it, so the real app's
 * Send Email node (the "new event: tell the organizer" example) can be checked end to end. Plain
 * SMTP without TLS or authentication (the n8n credential: SSL/TLS off, Disable STARTTLS on, no
 * user); enough of RFC 5321 for nodemailer: EHLO/HELO, MAIL, RCPT, DATA (dot-stuffing), RSET,
 * NOOP, QUIT. The text part is decoded from quoted-printable or base64, headers from RFC 2047 words.
 */

const net = require('node:net');

/** Largest message kept; more ends the session (a sink for tests, not a mail server). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * @typedef {object} Mail
 * @property {string} from the envelope sender
 * @property {string[]} to the envelope recipients
 * @property {Record<string, string>} headers lower-case names, folded lines joined
 * @property {string} subject
 * @property {string} text the body, decoded
 * @property {string} raw
 */

/** @param {string} text */
function decodeQuotedPrintable(text) {
	const bytes = Buffer.from(
		text
			.replace(/=\r?\n/g, '')
			.replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
		'latin1',
	);
	return bytes.toString('utf8');
}

/**
 * A header with RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) as text; the space
 * between two encoded words is dropped, as the RFC says.
 * @param {string} value
 */
function decodeHeader(value) {
	return value
		.replace(/(\?=)\s+(=\?)/g, '$1$2')
		.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, charset, kind, text) => {
			if (String(charset).toLowerCase() !== 'utf-8') return text;
			if (String(kind).toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
			return decodeQuotedPrintable(String(text).replace(/_/g, ' '));
		});
}

/**
 * @param {string} raw the DATA of one message, dot-stuffing removed
 * @returns {{ headers: Record<string, string>, text: string }}
 */
function parseMessage(raw) {
	const split = raw.indexOf('\r\n\r\n');
	const head = split < 0 ? raw : raw.slice(0, split);
	const body = split < 0 ? '' : raw.slice(split + 4);
	/** @type {Record<string, string>} */
	const headers = {};
	for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = decodeHeader(line.slice(colon + 1).trim());
	}
	const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
	const text =
		encoding === 'quoted-printable'
			? decodeQuotedPrintable(body)
			: encoding === 'base64'
				? Buffer.from(body, 'base64').toString('utf8')
				: body;
	return { headers, text: text.replace(/\r\n$/, '') };
}

/**
 * Starts the sink on a free port of 127.0.0.1.
 * @returns {Promise<{ port: number, mails: Mail[], close: () => Promise<void> }>}
 */
async function startSmtpSink() {
	/** @type {Mail[]} */
	const mails = [];
	/** @type {Set<net.Socket>} */
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		socket.setEncoding('latin1');
		let buffer = '';
		let inData = false;
		let from = '';
		/** @type {string[]} */
		let to = [];
		const reply = (/** @type {string} */ line) => socket.write(`${line}\r\n`);
		reply('220 eventpics-smtp-sink ready');
		socket.on('data', (chunk) => {
			buffer += chunk;
			if (buffer.length > MAX_MESSAGE_BYTES) return socket.destroy();
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0 && !buffer.startsWith('.\r\n')) return;
					const raw = buffer.startsWith('.\r\n') ? '' : buffer.slice(0, end);
					buffer = buffer.slice(buffer.startsWith('.\r\n') ? 3 : end + 5);
					const unstuffed = Buffer.from(raw.replace(/^\.\./gm, '.'), 'latin1').toString('utf8');
					const { headers, text } = parseMessage(unstuffed);
					mails.push({ from, to, headers, subject: headers.subject ?? '', text, raw: unstuffed });
					inData = false;
					from = '';
					to = [];
					reply('250 OK: kept');
					continue;
				}
				const end = buffer.indexOf('\r\n');
				if (end < 0) return;
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO' || verb === 'HELO') reply('250 eventpics-smtp-sink');
				else if (verb === 'MAIL') {
					from = (/<([^>]*)>/.exec(line) ?? [])[1] ?? '';
					reply('250 OK');
				} else if (verb === 'RCPT') {
					to.push((/<([^>]*)>/.exec(line) ?? [])[1] ?? '');
					reply('250 OK');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 End data with <CR><LF>.<CR><LF>');
				} else if (verb === 'RSET') {
					from = '';
					to = [];
					reply('250 OK');
				} else if (verb === 'NOOP') reply('250 OK');
				else if (verb === 'QUIT') {
					reply('221 Bye');
					socket.end();
					return;
				} else reply('502 Command not implemented');
			}
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {net.AddressInfo} */ (server.address());
	return {
		port,
		mails,
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve(undefined));
			}),
	};
}

module.exports = { startSmtpSink, parseMessage };
