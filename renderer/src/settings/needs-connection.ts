/** How the settings screen says a change cannot be made offline. */
export const NEEDS_CONNECTION = 'needs a connection to the server';
