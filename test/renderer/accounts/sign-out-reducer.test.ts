/** What the welcome screen says of work kept for a signed-out account. */
import { describe, expect, it } from 'vitest';
import { keptText } from '../../../renderer/src/accounts/sign-out-reducer.js';

const server = { id: 'a', realm_url: 'https://chat.example.com', email: 'iago@example.com', kind: 'server' as const };

describe('keptText', () => {
  it('names the account, counts what is kept and says it is sent on signing in to it again', () => {
    expect(keptText({ ...server, unsent: 2, drafts: 0 })).toBe('Unsent changes are kept on this device for iago@example.com on chat.example.com: 2 unsent changes. They will be sent when you sign in to this account again.');
    expect(keptText({ ...server, unsent: 1, drafts: 3 })).toBe('Unsent changes are kept on this device for iago@example.com on chat.example.com: 1 unsent change and 3 drafts. The changes will be sent and the drafts be back when you sign in to this account again.');
    expect(keptText({ ...server, unsent: 0, drafts: 1 })).toBe('Drafts are kept on this device for iago@example.com on chat.example.com: 1 draft. They will be back when you sign in to this account again.');
  });

  it('the sandbox is opened again rather than signed in to', () => {
    expect(keptText({ ...server, id: 'sandbox', kind: 'sandbox', realm_url: 'http://127.0.0.1:5000', email: 'desdemona@example.com', unsent: 1, drafts: 0 })).toBe(
      'Unsent changes are kept on this device for the sandbox (desdemona@example.com): 1 unsent change. They will be sent when you open the sandbox again.',
    );
  });
});
