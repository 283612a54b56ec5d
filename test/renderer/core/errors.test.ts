/** A contract error as the sentence a command's error line shows (`useCommand` with `ErrorText`). */
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../renderer/src/core/bridge-error.js';
import { errorText } from '../../../renderer/src/core/errors.js';

describe('errorText', () => {
  it('shows a full disk in the engine\'s own words, with nothing added', () => {
    expect(errorText(new BridgeError('DISK_FULL', 'The disk is full; your change was not saved.', { reason: 'full' }))).toBe('The disk is full; your change was not saved.');
  });

  it('prefixes what the other codes mean', () => {
    expect(errorText(new BridgeError('OFFLINE', 'no route'))).toBe('Could not reach the server: no route');
    expect(errorText(new BridgeError('SERVER', 'Not allowed'))).toBe('The server refused: Not allowed');
  });
});
