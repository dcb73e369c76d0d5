import * as net from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSmtpSink } = require('./smtp-sink');

interface Sink {
	port: number;
	mails: Array<{
		from: string;
		to: string[];
		subject: string;
		text: string;
		headers: Record<string, string>;
	}>;
	close: () => Promise<void>;
}

/** One SMTP session as a client writes it, command by command, waiting for each answer. */
async function session(port: number, lines: string[]): Promise<string[]> {
	const socket = net.connect(port, '127.0.0.1');
	socket.setEncoding('utf8');
	const answers: string[] = [];
	let pending = '';
	const next = () =>
		new Promise<string>((resolve) => {
			const take = () => {
				const end = pending.indexOf('\r\n');
				if (end < 0) {
					socket.once('data', (chunk) => ((pending += chunk), take()));
					return;
				}
				const line = pending.slice(0, end);
				pending = pending.slice(end + 2);
				resolve(line);
			};
			take();
		});
	answers.push(await next());
	for (const line of lines) {
		socket.write(`${line}\r\n`);
		answers.push(await next()); // every command, and the message after DATA, gets one answer
	}
	socket.destroy();
	return answers;
}

describe('SMTP sink (test:n8n)', () => {
	let sink: Sink;
	beforeAll(async () => (sink = await startSmtpSink()));
	afterAll(async () => await sink.close());

	it('keeps a message with its envelope, headers and decoded quoted-printable text, dot-stuffing undone', async () => {
		const body = [
			'From: Studio <studio@example.com>',
			'To: organizer@example.com',
			'Subject: Your photo event "Gala" is',
			' ready',
			'Content-Type: text/plain; charset=utf-8',
			'Content-Transfer-Encoding: quoted-printable',
			'',
			'Hello, caf=C3=A9 and a very long line that nodemailer folds with a soft =',
			'break.',
			'..a line that started with a dot',
			'.',
		].join('\r\n');
		const answers = await session(sink.port, [
			'EHLO client',
			'MAIL FROM:<studio@example.com>',
			'RCPT TO:<organizer@example.com>',
			'DATA',
			body,
			'QUIT',
		]);
		expect(answers).toEqual([
			'220 eventpics-smtp-sink ready',
			'250 eventpics-smtp-sink',
			'250 OK',
			'250 OK',
			'354 End data with <CR><LF>.<CR><LF>',
			'250 OK: kept',
			'221 Bye',
		]);
		expect(sink.mails).toHaveLength(1);
		expect(sink.mails[0]).toMatchObject({
			from: 'studio@example.com',
			to: ['organizer@example.com'],
			subject: 'Your photo event "Gala" is ready',
			text: 'Hello, café and a very long line that nodemailer folds with a soft break.\r\n.a line that started with a dot',
		});
	});

	it('decodes a base64 body and encoded header words, and answers 502 to what it does not know', async () => {
		const answers = await session(sink.port, [
			'HELO client',
			'STARTTLS',
			'MAIL FROM:<a@example.com>',
			'RCPT TO:<b@example.com>',
			'RCPT TO:<c@example.com>',
			'DATA',
			[
				'Subject: =?UTF-8?Q?Your_photo_event_=22Gala_=28test=3An8n?=',
				' =?UTF-8?Q?=29=22_is_ready?=',
				'X-Other: =?UTF-8?B?R3LDvMOfZQ==?= and plain',
				'Content-Transfer-Encoding: base64',
				'',
				Buffer.from('Grüße').toString('base64'),
				'.',
			].join('\r\n'),
		]);
		expect(answers[2]).toBe('502 Command not implemented');
		expect(sink.mails[1]).toMatchObject({
			to: ['b@example.com', 'c@example.com'],
			subject: 'Your photo event "Gala (test:n8n)" is ready',
			headers: expect.objectContaining({ 'x-other': 'Grüße and plain' }),
			text: 'Grüße',
		});
	});
});
