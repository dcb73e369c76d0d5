export { searchAlbums } from './searchAlbums';
export { searchEvents } from './searchEvents';
