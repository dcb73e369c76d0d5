// @ts-check
'use strict';

const fs = require('node:fs');
const { albumIdOf } = require('./seed');
const { sendText } = require('./http-util');

/** The page to look at: GET / lists events, albums and the photos uploaded so far; GET /files/<id>. */

/** @typedef {import('./state').State} State */
/** @typedef {import('./state').StoredUpload} StoredUpload */

/** @param {unknown} s */
function esc(s) {
	return String(s).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
	);
}

/** @param {number} n */
function humanSize(n) {
	if (n < 1024) return `${n} B`;
	const units = ['KiB', 'MiB', 'GiB'];
	let v = n / 1024;
	let i = 0;
	while (v >= 1024 && i < units.length - 1) {
		v /= 1024;
		i++;
	}
	return `${v.toFixed(1)} ${units[i]}`;
}

/** Image types browsers display; others (HEIC/HEIF, RAW, TIFF) get a link instead of a broken image. */
const SHOWN_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/svg+xml']);

/** @param {StoredUpload} u */
function preview(u) {
	const src = `/files/${encodeURIComponent(u.id)}`;
	if (SHOWN_IMAGES.has(u.contentType))
		return `<img src="${esc(src)}" alt="${esc(u.fileName)}" loading="lazy">`;
	if (u.contentType.startsWith('video/'))
		return `<video src="${esc(src)}" controls preload="metadata"></video>`;
	const note = u.contentType.startsWith('image/') ? ' (no preview in browsers)' : '';
	return `<a class="file" href="${esc(src)}">${esc(u.contentType)}${note}</a>`;
}

/** @param {StoredUpload} u */
function card(u) {
	const taken =
		u.takenAt === null
			? 'not given'
			: `${esc(isoOrRaw(u.takenAt))} <small>(${esc(u.takenAt)})</small>`;
	return `<figure class="photo" data-upload-id="${esc(u.id)}">${preview(u)}<figcaption>
<b class="name">${esc(u.fileName)}</b>
<span>${esc(humanSize(u.size))} <small>(${esc(u.size)} bytes)</small></span>
<span>${esc(u.contentType)}</span>
<span>taken: ${taken}</span>
<span>uploaded: ${esc(u.uploadedAt)}</span>
<span class="hash">sha256 ${esc(u.sha256.slice(0, 16))}…</span>
</figcaption></figure>`;
}

/** @param {number} ms */
function isoOrRaw(ms) {
	const d = new Date(ms);
	return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/**
 * @param {string} title
 * @param {string} note
 * @param {StoredUpload[]} uploads
 */
function albumSection(title, note, uploads) {
	const body =
		uploads.length === 0
			? '<p class="empty">No photos yet.</p>'
			: `<div class="grid">${uploads.map(card).join('\n')}</div>`;
	return `<section class="album"><h3>${esc(title)} <small>${note}</small></h3>${body}</section>`;
}

/**
 * @param {State} state
 * @returns {string}
 */
function renderPage(state) {
	const parts = [];
	for (const account of state.accounts) {
		parts.push(`<h2>${esc(account.name)}</h2>`);
		for (const event of account.events) {
			const mine = state.uploads.filter((u) => u.linkId === event.linkId);
			const albums = (event.albums ?? []).map((a) => {
				const id = albumIdOf(a) ?? '';
				const spelling = a.id !== undefined ? 'id' : 'albumId';
				return albumSection(
					a.title,
					`${esc(spelling)}: <code>${esc(id)}</code>`,
					mine.filter((u) => u.albumId === id),
				);
			});
			const loose = mine.filter((u) => u.albumId === null);
			if (loose.length > 0 || albums.length === 0)
				albums.push(albumSection('No album', 'albumId not given', loose));
			const noAlbums =
				event.albums === undefined ? ' <small class="tag">no albums field</small>' : '';
			parts.push(`<article class="event"><h2 class="event-title">${esc(event.title)}${noAlbums}</h2>
<p>linkId <code>${esc(event.linkId)}</code> · ${mine.length} upload(s)</p>${albums.join('\n')}</article>`);
		}
	}
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>EventPics emulator</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header{background:#1d2330;color:#fff;padding:16px 24px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#b8c0d0}
main{padding:8px 24px 32px;max-width:1200px}
.event{background:#fff;border-radius:10px;padding:12px 20px;margin:16px 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.event-title{margin:4px 0;font-size:20px}.album h3{font-size:16px;margin:14px 0 8px;color:#394258}
.tag{background:#fde9c8;color:#7a4b00;border-radius:4px;padding:1px 6px;font-weight:normal}
code{background:#eef0f4;border-radius:4px;padding:1px 5px}small{color:#6b7385;font-weight:normal}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
.photo{margin:0;border:1px solid #e1e4ea;border-radius:8px;overflow:hidden;background:#fafbfc}
.photo img,.photo video{display:block;width:100%;height:150px;object-fit:cover;background:#dde1e8}
.photo .file{display:flex;height:150px;align-items:center;justify-content:center;color:#394258}
figcaption{display:flex;flex-direction:column;gap:2px;padding:8px;font-size:12px;color:#394258;overflow-wrap:anywhere}
.empty{color:#8a91a0;font-style:italic;margin:4px 0}
</style></head>
<body><header><h1>EventPics emulator</h1><p>${state.uploads.length} upload(s) stored · reload to refresh</p></header>
<main>${parts.join('\n')}</main></body></html>`;
}

/**
 * @param {State} state
 * @param {import('node:http').ServerResponse} res
 */
function sendPage(state, res) {
	sendText(res, 200, renderPage(state), {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Security-Policy':
			"default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
		'X-Content-Type-Options': 'nosniff',
	});
}

/**
 * GET /files/<id>: the stored bytes with their content type.
 * @param {State} state
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} id
 */
function sendFile(state, req, res, id) {
	const u = state.uploads.find((x) => x.id === id);
	if (!u || !fs.existsSync(u.path)) return sendText(res, 404, 'No such file.');
	res.writeHead(200, {
		'Content-Type': u.contentType,
		'Content-Length': String(u.size),
		'Cache-Control': 'no-store',
		'X-Content-Type-Options': 'nosniff',
		'Content-Security-Policy': "sandbox; default-src 'none'",
		ETag: u.etag,
	});
	if (req.method === 'HEAD') {
		res.end();
		return;
	}
	fs.createReadStream(u.path)
		.on('error', () => res.destroy())
		.pipe(res);
}

module.exports = { renderPage, sendPage, sendFile, esc };
