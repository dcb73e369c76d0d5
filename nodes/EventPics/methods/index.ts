export { eventPicsApiTest } from './credentialTest';
export { searchAlbums } from './searchAlbums';
export { searchEvents } from './searchEvents';
