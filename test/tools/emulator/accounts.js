// @ts-check
'use strict';

const { SEED, DEMO_API_KEY, albumIdOf } = require('./seed');

/**
 * The emulator's accounts while it runs: a copy of the seed that tests and the control API change
 * (an event or album added or removed), so a trigger can be watched seeing them come and go.
 * `reset()` goes back to the seed. New events and albums go to the end of their list, where
 * EventPics is assumed to list new ones (the API documents no order and no creation date).
 */

/** @typedef {import('./seed').SeedAccount} SeedAccount */
/** @typedef {import('./seed').SeedEvent} SeedEvent */
/** @typedef {import('./seed').SeedAlbum} SeedAlbum */

/** Longest link ID, album id and title the control API takes (the API documents no limit). */
const MAX_TEXT = 200;

/** @returns {SeedAccount[]} a deep copy of the seeded accounts */
function seedAccounts() {
	return structuredClone(SEED.accounts);
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
function text(value, what) {
	if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT)
		throw new TypeError(`${what} must be a non-empty string of at most ${MAX_TEXT} characters`);
	return value;
}

/**
 * @param {SeedAccount[]} accounts
 * @param {unknown} apiKey the account's key; the demo key when undefined
 * @returns {SeedAccount}
 */
function accountOf(accounts, apiKey = DEMO_API_KEY) {
	const account = accounts.find((candidate) => candidate.apiKey === apiKey);
	if (!account) throw new TypeError('No account has this apiKey');
	return account;
}

/**
 * @param {SeedAccount} account
 * @param {string} linkId
 * @returns {SeedEvent}
 */
function eventOf(account, linkId) {
	const event = account.events.find((candidate) => candidate.linkId === linkId);
	if (!event) throw new TypeError(`The account has no event "${linkId}"`);
	return event;
}

/**
 * An album as the API lists it: `id`, or `albumId` when the request spells it so.
 * @param {Record<string, unknown>} raw
 * @returns {SeedAlbum}
 */
function albumFrom(raw) {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw))
		throw new TypeError('An album must be an object');
	const title = text(raw.title, 'title');
	if (raw.albumId !== undefined) return { albumId: text(raw.albumId, 'albumId'), title };
	return { id: text(raw.id, 'id'), title };
}

/**
 * @param {SeedEvent} event
 * @param {SeedAlbum} album
 */
function pushAlbum(event, album) {
	const id = albumIdOf(album);
	if ((event.albums ?? []).some((candidate) => albumIdOf(candidate) === id))
		throw new TypeError(`The event "${event.linkId}" already has an album "${id}"`);
	event.albums = [...(event.albums ?? []), album];
}

/**
 * Adds an event at the end of the account's list.
 * @param {SeedAccount[]} accounts
 * @param {Record<string, unknown>} request `{ linkId, title, albums?, apiKey? }`
 * @returns {SeedEvent} a copy of the event as stored
 */
function addEvent(accounts, request) {
	if (!request || typeof request !== 'object' || Array.isArray(request))
		throw new TypeError('An event must be an object');
	const account = accountOf(accounts, request.apiKey);
	const linkId = text(request.linkId, 'linkId');
	if (account.events.some((candidate) => candidate.linkId === linkId))
		throw new TypeError(`The account already has an event "${linkId}"`);
	/** @type {SeedEvent} */
	const event = { linkId, title: text(request.title, 'title') };
	if (request.albums !== undefined) {
		if (!Array.isArray(request.albums)) throw new TypeError('albums must be an array');
		event.albums = [];
		for (const raw of request.albums) pushAlbum(event, albumFrom(raw));
	}
	account.events.push(event);
	return structuredClone(event);
}

/**
 * @param {SeedAccount[]} accounts
 * @param {string} linkId
 * @param {unknown} [apiKey]
 */
function removeEvent(accounts, linkId, apiKey) {
	const account = accountOf(accounts, apiKey);
	eventOf(account, linkId);
	account.events = account.events.filter((candidate) => candidate.linkId !== linkId);
}

/**
 * Adds an album at the end of the event's albums.
 * @param {SeedAccount[]} accounts
 * @param {string} linkId
 * @param {Record<string, unknown>} request `{ id | albumId, title, apiKey? }`
 * @returns {SeedAlbum}
 */
function addAlbum(accounts, linkId, request) {
	const event = eventOf(accountOf(accounts, request?.apiKey), linkId);
	const album = albumFrom(request);
	pushAlbum(event, album);
	return { ...album };
}

/**
 * @param {SeedAccount[]} accounts
 * @param {string} linkId
 * @param {string} albumId
 * @param {unknown} [apiKey]
 */
function removeAlbum(accounts, linkId, albumId, apiKey) {
	const event = eventOf(accountOf(accounts, apiKey), linkId);
	if (!(event.albums ?? []).some((album) => albumIdOf(album) === albumId))
		throw new TypeError(`The event "${linkId}" has no album "${albumId}"`);
	event.albums = (event.albums ?? []).filter((album) => albumIdOf(album) !== albumId);
}

/**
 * The accounts without their keys, for GET /__control/events.
 * @param {SeedAccount[]} accounts
 */
function publicAccounts(accounts) {
	return accounts.map(({ name, events }) => ({ name, events: structuredClone(events) }));
}

module.exports = {
	seedAccounts,
	addEvent,
	removeEvent,
	addAlbum,
	removeAlbum,
	publicAccounts,
};
