/**
 * The paths a megabyte of outside text takes through the real n8n engine: a File Name, a File URL,
 * a redirect's Location, a Content-Disposition, a Base URL. Run in a child process by
 * ../linear-time.test.ts, started with a --max-http-header-size of 4 MiB (as an n8n started with a
 * larger header limit would be: Node.js refuses more than 16 KiB of headers by default).
 *
 * Each case reports the node's run time and the longest time the event loop was blocked during it
 * (what froze every other workflow of the n8n process), plus what the run produced.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { IDataObject } from 'n8n-workflow';

import type { FileHost } from '../../node/fileHost.cts';
import { proxyThrough, serve, startFileHost } from '../../node/fileHost.cts';
import type { Emulator, RunResult } from '../../node/fixture.cts';
import {
	binaryFromBuffer,
	credentialTypes,
	runEventPics,
	startEmulator,
	testCredential,
	uploadParameters,
} from '../../node/fixture.cts';
import { resolveNames } from '../../node/names.cts';
import { INPUTS } from './textCases.cts';

const MB = 1 << 20;
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 0x42)]);

let ready: Promise<{ emu: Emulator; host: FileHost }> | undefined;

/** The emulator and a file host, started once per process and warmed up by one plain upload of each source. */
async function setUp(): Promise<{ emu: Emulator; host: FileHost }> {
	// a public address for the first hop, so that n8n's egress filter lets it through to the redirect
	resolveNames({ 'files.example.com': '93.184.215.14' });
	const emu = await startEmulator();
	const host = await startFileHost();
	proxyThrough(host); // for the whole process: the cases share these servers
	host.route('/warm.jpg', serve.file(PHOTO, 'image/jpeg'));
	await runEventPics({ emu, parameters: uploadParameters(), inputItems: [photoItem('warm.jpg')] });
	await runEventPics({ emu, parameters: fromUrl(`${host.url}/warm.jpg`) });
	return { emu, host };
}

function photoItem(fileName: string) {
	return { binary: { data: binaryFromBuffer(PHOTO, { fileName, mimeType: 'image/jpeg' }) } };
}

function fromUrl(fileUrl: string) {
	return uploadParameters({ source: 'url', fileUrl, options: { allowInternalAddresses: true } });
}

/** The run's time, the longest block of the event loop during it, and what it produced. */
async function measured(run: () => Promise<IDataObject>) {
	const histogram = monitorEventLoopDelay({ resolution: 10 });
	histogram.enable();
	const started = performance.now();
	const outcome = await run();
	const ms = Math.round(performance.now() - started);
	histogram.disable();
	return { ms, maxBlockMs: Math.round(histogram.max / 1e6), ...outcome };
}

/** What a run of the node produced, small enough to print. */
function summary(result: RunResult): IDataObject {
	const json = result.items[0]?.json ?? {};
	const message = String(result.nodeError?.message ?? json.error ?? '');
	return {
		status: result.status,
		message: message.slice(0, 300),
		messageLength: message.length,
		fileName: typeof json.fileName === 'string' ? json.fileName : null,
		urlLength: typeof json.url === 'string' ? json.url.length : null,
		outputLength: JSON.stringify(result.items).length,
	};
}

type Case = () => Promise<{ ms: number; [detail: string]: unknown }>;

const upload =
	(
		arrange: (setup: { emu: Emulator; host: FileHost }) => Parameters<typeof runEventPics>[0],
	): Case =>
	async () => {
		const setup = await (ready ??= setUp());
		const options = arrange(setup);
		return await measured(async () => {
			const result = await runEventPics({ continueOnFail: true, ...options });
			return { ...summary(result), uploads: setup.emu.uploads.length };
		});
	};

const dotsHost = `a${INPUTS.dotsInside.slice(1, -5)}b.localhost`;

export const cases: Record<string, Case> = {
	'File Name option of 1 MiB: x, dots, y.jpg': upload(({ emu }) => ({
		emu,
		parameters: uploadParameters({ options: { fileName: INPUTS.dotsInside } }),
		inputItems: [photoItem('a.jpg')],
	})),
	"binary's own file name of 1 MiB: dots before the extension": upload(({ emu }) => ({
		emu,
		parameters: uploadParameters(),
		inputItems: [photoItem(INPUTS.dotsBeforeExtension)],
	})),
	'File URL with a path of 1 MiB: x, dots, y.jpg': upload(({ emu, host }) => {
		const path = `/${INPUTS.dotsInside}`;
		host.route(path, serve.file(PHOTO, 'image/jpeg'));
		return { emu, parameters: fromUrl(`${host.url}${path}`) };
	}),
	'File URL with a host of 1 MiB: a, dots, b.localhost': upload(({ emu }) => ({
		emu,
		parameters: uploadParameters({ source: 'url', fileUrl: `http://${dotsHost}/x.jpg` }),
	})),
	'redirect Location of 1 MiB: to a host of dots': upload(({ emu, host }) => {
		host.route('/to-dots-host', serve.redirect(`http://${dotsHost}/x.jpg`));
		// a public-looking first address (through the proxy), so that internal ones are refused
		const fileUrl = 'http://files.example.com/to-dots-host';
		return { emu, parameters: uploadParameters({ source: 'url', fileUrl }) };
	}),
	'redirect Location of 1 MiB: to a path of dots': upload(({ emu, host }) => {
		const path = `/${INPUTS.dotsInside}`;
		host.route(path, serve.file(PHOTO, 'image/jpeg'));
		// the first address names no file, so the name comes from the Location's path
		host.route('/', serve.redirect(`${host.url}${path}`));
		return { emu, parameters: fromUrl(`${host.url}/`) };
	}),
	'Content-Disposition of 1 MiB: filename="x, dots, y.jpg"': upload(({ emu, host }) => {
		host.route(
			'/disposition-dots',
			serve.file(PHOTO, 'image/jpeg', {
				headers: { 'Content-Disposition': `attachment; filename="${INPUTS.dotsInside}"` },
			}),
		);
		return { emu, parameters: fromUrl(`${host.url}/disposition-dots`) };
	}),
	'Content-Disposition of 1 MiB: filename*= repeated without a quote': upload(({ emu, host }) => {
		const header = `attachment; ${'filename*=a'.repeat(MB / 11)}`;
		host.route(
			'/disposition-ext.jpg',
			serve.file(PHOTO, 'image/jpeg', { headers: { 'Content-Disposition': header } }),
		);
		return { emu, parameters: fromUrl(`${host.url}/disposition-ext.jpg`) };
	}),
	'Base URL of 1 MiB: slashes, then a letter': upload(({ emu }) => ({
		emu,
		baseUrl: `${emu.baseUrl}${'/'.repeat(MB)}x`,
		parameters: { resource: 'event', operation: 'getAll', returnAll: true },
	})),
	'credential test, Base URL of 1 MiB: slashes, then a letter': async () => {
		const { emu } = await (ready ??= setUp());
		return await measured(async () => {
			const result = (await testCredential({
				credentialType: 'eventPicsApi',
				credentialTypes,
				credentials: { apiKey: emu.apiKey, baseUrl: `${emu.baseUrl}${'/'.repeat(MB)}x` },
			})) as IDataObject;
			return { status: String(result.status), message: String(result.message).slice(0, 300) };
		});
	},
};
