// @ts-check
'use strict';

/**
 * Seeded accounts of the EventPics emulator.
 *
 * The demo account exercises both album id spellings the API doc allows (`id` and `albumId`)
 * and an event without an `albums` field. A second account owns an event the demo key must
 * never see.
 */

/** @typedef {{ id?: string, albumId?: string, title: string }} SeedAlbum */
/** @typedef {{ linkId: string, title: string, albums?: SeedAlbum[] }} SeedEvent */
/** @typedef {{ name: string, apiKey: string, events: SeedEvent[] }} SeedAccount */

/** The demo key: its events are listed below. Not a secret (local emulator only). */
const DEMO_API_KEY = 'ep_demo_4f7c2b9e1a6d4c8b';

/** A second account's key with different events. */
const OTHER_API_KEY = 'ep_other_9d3e5a7c2f1b4e60';

/** @type {{ accounts: SeedAccount[] }} */
const SEED = {
	accounts: [
		{
			name: 'Demo account',
			apiKey: DEMO_API_KEY,
			events: [
				{
					linkId: 'wedding-anna-ben',
					title: "Anna & Ben's Wedding",
					albums: [
						{ id: 'booth', title: 'Photo booth' },
						{ id: 'ceremony', title: 'Ceremony' },
					],
				},
				{
					linkId: 'summer-party-2026',
					title: 'Summer Party 2026',
					albums: [
						{ albumId: 'sp-booth', title: 'Booth' },
						{ albumId: 'sp-dance', title: 'Dance floor' },
					],
				},
				{ linkId: 'office-opening', title: 'Office Opening' },
			],
		},
		{
			name: 'Other account',
			apiKey: OTHER_API_KEY,
			events: [
				{
					linkId: 'other-event',
					title: "Someone Else's Event",
					albums: [{ id: 'x1', title: 'X' }],
				},
			],
		},
	],
};

/**
 * The album identifier, whichever spelling the album uses.
 * @param {SeedAlbum} album
 * @returns {string | undefined}
 */
function albumIdOf(album) {
	return album.id !== undefined ? album.id : album.albumId;
}

module.exports = { SEED, DEMO_API_KEY, OTHER_API_KEY, albumIdOf };
