/** Which own messages keep their raw text, by role and the realm's content-edit limit, and the server's refusals in words. */
import { describe, expect, it } from 'vitest';
import { boundByTimeLimits } from '../../../common/edit-limits.js';
import { rawKeepPolicy, serverWouldRefuse } from '../../../sync/engine/raw-keep.js';

const NOW_MS = 1_800_000_000_000;
const NOW_S = NOW_MS / 1000;
const OWNER = 100;
const ADMIN = 200;
const MODERATOR = 300;
const MEMBER = 400;
const GUEST = 600;

describe('rawKeepPolicy', () => {
  it('keeps only the edit window for members and guests under a limit', () => {
    for (const role of [MEMBER, GUEST]) {
      expect(rawKeepPolicy({ allowEditing: true, limitSeconds: 600, role }, NOW_MS)).toEqual({ keep: true, sinceSeconds: NOW_S - 600 });
    }
  });

  it('keeps every own message for owners, administrators and moderators, whom the limit does not bind', () => {
    for (const role of [OWNER, ADMIN, MODERATOR]) {
      expect(rawKeepPolicy({ allowEditing: true, limitSeconds: 600, role }, NOW_MS)).toEqual({ keep: true, sinceSeconds: 0 });
    }
  });

  it('keeps every own message for anyone when editing has no time limit (null or 0)', () => {
    for (const limitSeconds of [null, 0]) {
      expect(rawKeepPolicy({ allowEditing: true, limitSeconds, role: MEMBER }, NOW_MS)).toEqual({ keep: true, sinceSeconds: 0 });
    }
  });

  it('keeps nothing when the organization turned editing off, whatever the role', () => {
    for (const role of [OWNER, MEMBER]) expect(rawKeepPolicy({ allowEditing: false, limitSeconds: null, role }, NOW_MS)).toEqual({ keep: false });
  });

  it('treats an unknown role (a future one, or a user not yet stored) as bound', () => {
    expect(boundByTimeLimits('role_from_the_future')).toBe(true);
    expect(boundByTimeLimits(undefined)).toBe(true);
    expect(rawKeepPolicy({ allowEditing: true, limitSeconds: 3600, role: undefined }, NOW_MS)).toEqual({ keep: true, sinceSeconds: NOW_S - 3600 });
  });
});

describe('serverWouldRefuse', () => {
  const sixHoursAgo = NOW_S - 6 * 3600;

  it('refuses a member past the window, in words naming the window', () => {
    expect(serverWouldRefuse({ allowEditing: true, limitSeconds: 600, role: MEMBER }, sixHoursAgo, NOW_MS)).toBe(
      'Your organization allows editing a message only within 10 minutes of sending it, and this one is older.',
    );
    expect(serverWouldRefuse({ allowEditing: true, limitSeconds: 86_400, role: GUEST }, NOW_S - 2 * 86_400, NOW_MS)).toMatch(/within 1 day of/);
  });

  it('accepts a member inside the window, and an owner or moderator at any age', () => {
    expect(serverWouldRefuse({ allowEditing: true, limitSeconds: 600, role: MEMBER }, NOW_S - 60, NOW_MS)).toBeUndefined();
    for (const role of [OWNER, ADMIN, MODERATOR]) expect(serverWouldRefuse({ allowEditing: true, limitSeconds: 600, role }, sixHoursAgo, NOW_MS)).toBeUndefined();
  });

  it('refuses everyone when editing is off', () => {
    expect(serverWouldRefuse({ allowEditing: false, limitSeconds: null, role: OWNER }, NOW_S, NOW_MS)).toBe('Your organization has turned off message editing.');
  });
});
