/** Pure: any error (the bridge's, or anything thrown) as a sentence a person can read. */
import { isBridgeError } from './bridge-error.js';

/** A sentence for an error thrown by the bridge (or anything else). */
export function errorText(e: unknown): string {
  if (!isBridgeError(e)) return e instanceof Error ? e.message : String(e);
  switch (e.code) {
    case 'SERVER':
      return `The server refused: ${e.message}`;
    case 'OFFLINE':
      return `Could not reach the server: ${e.message}`;
    case 'UNAVAILABLE':
      return `Not available here: ${e.message}`;
    case 'INVALID_REQUEST':
      return `Check what you entered: ${e.message}`;
    case 'DISK_FULL':
      // Already a whole sentence: "The disk is full; your change was not saved."
      return e.message;
    case 'NO_ACCOUNT':
      return `No account is open: ${e.message}`;
    default:
      return e.message;
  }
}

/** The engine's messages start lower-case (they read as the tail of a log line); a screen shows a sentence. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
