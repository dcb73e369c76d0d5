// The night tier's cloud drive (drive.js): a listing, bodies counted, a folder that fills up.
const { startDrive } = require('./drive');
const { jpegIsWhole } = require('./photos');

let drive: any;
beforeAll(async () => {
	drive = await startDrive({ files: 5, latencyMs: 0 });
});
afterAll(() => drive.close());

test('lists { id, name, mimeType } of the files shown, and sends a body by id, counted', async () => {
	const listing: any = await (await fetch(drive.listUrl)).json();
	expect(listing.files).toHaveLength(5);
	expect(Object.keys(listing.files[0]).sort()).toEqual(['id', 'mimeType', 'name']);
	expect(listing.files.map((f: any) => f.name)).toEqual(
		['0001', '0002', '0003', '0004', '0005'].map((n) => `drive-${n}.jpg`),
	);
	const response = await fetch(`${drive.url}/drive/v3/files/${listing.files[1].id}?alt=media`);
	expect(response.status).toBe(200);
	expect(response.headers.get('content-type')).toBe('image/jpeg');
	expect(response.headers.get('content-disposition')).toBe('attachment; filename="drive-0002.jpg"');
	const body = Buffer.from(await response.arrayBuffer());
	expect(body.equals(drive.files[1].bytes)).toBe(true);
	expect(jpegIsWhole(body)).toBe(true);
	expect(drive.counts()).toEqual({ downloads: 1, bytesSent: body.length, listings: 1 });
});

test('show(n) lists the first n files (0: an empty folder); an unknown id or no alt=media is a 404, not a download', async () => {
	drive.show(2);
	expect(((await (await fetch(drive.listUrl)).json()) as any).files).toHaveLength(2);
	drive.show(0);
	expect(await (await fetch(drive.listUrl)).json()).toEqual({ files: [] });
	const before = drive.counts().downloads;
	expect((await fetch(`${drive.url}/drive/v3/files/nope?alt=media`)).status).toBe(404);
	expect((await fetch(`${drive.url}/drive/v3/files/${drive.files[0].id}`)).status).toBe(404);
	expect(drive.counts().downloads).toBe(before);
	drive.show(5);
});
